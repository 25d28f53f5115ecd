package dev.bulwark.sample;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.StoreUnavailableException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Turns Bulwark's rejections into HTTP answers a client can act on: 503 when the bulkhead is full,
 * 429 with {@code Retry-After} when the rate limit is used up, 409 when a lock stayed taken.
 */
public class BulwarkExceptionMappers {

  @ServerExceptionMapper
  public Response bulkheadFull(BulkheadFullException e) {
    return error(Response.Status.SERVICE_UNAVAILABLE, "bulkhead-full", e.getLimitName(), null, e);
  }

  @ServerExceptionMapper
  public Response rateLimitExceeded(RateLimitExceededException e) {
    return Response.fromResponse(
            error(Response.Status.TOO_MANY_REQUESTS, "rate-limited", e.getLimitName(), null, e))
        .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds(e.getRetryAfter()))
        .build();
  }

  @ServerExceptionMapper
  public Response lockTimeout(LockTimeoutException e) {
    return error(Response.Status.CONFLICT, "lock-timeout", e.getLimitName(), e.getLockKey(), e);
  }

  @ServerExceptionMapper
  public Response storeUnavailable(StoreUnavailableException e) {
    return error(Response.Status.SERVICE_UNAVAILABLE, "store-unavailable", null, null, e);
  }

  /** {@code Retry-After} counts whole seconds: round up, so a client never comes back too early. */
  static long retryAfterSeconds(Duration retryAfter) {
    if (retryAfter == null || retryAfter.isNegative() || retryAfter.isZero()) {
      return 1;
    }
    long seconds = retryAfter.getSeconds() + (retryAfter.getNano() > 0 ? 1 : 0);
    return Math.max(1, seconds);
  }

  private static Response error(
      Response.Status status, String error, String limit, String key, RuntimeException e) {
    return Response.status(status)
        .type(MediaType.APPLICATION_JSON_TYPE)
        .entity(new Rejection(error, limit, key, e.getMessage()))
        .build();
  }

  /** The JSON body of a rejection. */
  public record Rejection(String error, String limit, String key, String message) {}
}
