package dev.bulwark.it.payara.app;

import dev.bulwark.RateLimitExceededException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** An exceeded rate limit is 429 Too Many Requests with Retry-After in whole seconds. */
@Provider
public class RateLimitMapper implements ExceptionMapper<RateLimitExceededException> {

  @Override
  public Response toResponse(RateLimitExceededException e) {
    long millis = e.getRetryAfter().toMillis();
    long seconds = Math.max(1, (millis + 999) / 1000);
    return Response.status(Response.Status.TOO_MANY_REQUESTS)
        .type(MediaType.TEXT_PLAIN)
        .header(HttpHeaders.RETRY_AFTER, seconds)
        .entity(e.getClass().getSimpleName() + ": " + e.getMessage())
        .build();
  }
}
