package dev.bulwark.cdi.rest;

import dev.bulwark.RateLimitExceededException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/** An exceeded rate limit: 429 with {@code Retry-After}, when the next permit frees up. */
@Priority(ProblemResponses.PRIORITY)
public class RateLimitExceededMapper implements ExceptionMapper<RateLimitExceededException> {

  @Override
  public Response toResponse(RateLimitExceededException e) {
    return problem(e).toResponse(e);
  }

  static ProblemResponses.Problem problem(RateLimitExceededException e) {
    return ProblemResponses.Problem.of(
        Response.Status.TOO_MANY_REQUESTS,
        "rate-limited",
        "Rate limit exceeded",
        "Rate limit '" + e.getLimitName() + "' has no permit left for now.",
        e.getLimitName(),
        e.getRetryAfter());
  }
}
