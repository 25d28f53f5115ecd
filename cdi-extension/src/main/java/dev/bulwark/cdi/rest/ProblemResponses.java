package dev.bulwark.cdi.rest;

import dev.bulwark.core.log.BulwarkLog;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.time.Duration;

/**
 * The HTTP answer to a Bulwark rejection: a status a client can act on, {@code Retry-After} where
 * Bulwark knows when to come back, and an RFC 9457 {@code application/problem+json} body that names
 * the limit. A lock key never appears in it: it is data of the application (an account number, a
 * user id), which a client must not learn from a rejection.
 */
public final class ProblemResponses {

  /** The config key that turns the mapping off ({@code false}); on by default. */
  public static final String ENABLED_KEY = "bulwark.http.problem-responses";

  /**
   * Below an application's own mappers, whose default is {@link Priorities#USER}: of two mappers of
   * one exception type, Jakarta REST picks the one with the lower number.
   */
  public static final int PRIORITY = Priorities.USER + 1000;

  /** RFC 9457's media type. */
  public static final String PROBLEM_JSON = "application/problem+json";

  /**
   * Each problem type's URI: a tag URI (RFC 4151), an identifier that is not meant to be fetched.
   */
  static final String TYPE_PREFIX = "tag:bulwark.dev,2025:problem:";

  /** Rejections are counted by the meters already; a line per rejection only when asked for. */
  private static final BulwarkLog LOG = BulwarkLog.named("dev.bulwark.http");

  private ProblemResponses() {}

  /**
   * One answer: {@code retryAfterSeconds} is null where Bulwark does not know when to come back.
   */
  record Problem(
      Response.Status status,
      String type,
      String title,
      String detail,
      String limit,
      Long retryAfterSeconds) {

    static Problem of(
        Response.Status status,
        String type,
        String title,
        String detail,
        String limit,
        Duration retryAfter) {
      return new Problem(
          status,
          type,
          title,
          detail,
          limit,
          retryAfter == null ? null : ProblemResponses.retryAfterSeconds(retryAfter));
    }

    /** The RFC 9457 body. */
    String json() {
      StringBuilder json = new StringBuilder(160).append('{');
      member(json, "type", TYPE_PREFIX + type).append(',');
      member(json, "title", title).append(',');
      json.append("\"status\":").append(status.getStatusCode()).append(',');
      member(json, "detail", detail);
      if (limit != null) {
        member(json.append(','), "limit", limit);
      }
      if (retryAfterSeconds != null) {
        json.append(",\"retryAfter\":").append(retryAfterSeconds);
      }
      return json.append('}').toString();
    }

    Response toResponse(RuntimeException rejection) {
      LOG.debug(() -> "Bulwark answers " + status.getStatusCode() + ": " + detail, rejection);
      Response.ResponseBuilder response = Response.status(status).type(PROBLEM_JSON).entity(json());
      if (retryAfterSeconds != null) {
        response.header(HttpHeaders.RETRY_AFTER, retryAfterSeconds);
      }
      return response.build();
    }
  }

  /**
   * {@code Retry-After} counts whole seconds: rounded up, so a client that waits as told finds the
   * permit free, and never 0, which some clients read as "retry at once".
   */
  static long retryAfterSeconds(Duration retryAfter) {
    if (retryAfter.isNegative() || retryAfter.isZero()) {
      return 1;
    }
    long seconds = retryAfter.getSeconds() + (retryAfter.getNano() > 0 ? 1 : 0);
    return Math.max(1, seconds);
  }

  private static StringBuilder member(StringBuilder json, String name, String value) {
    json.append('"').append(name).append("\":\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        default -> {
          if (c < 0x20) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    return json.append('"');
  }
}
