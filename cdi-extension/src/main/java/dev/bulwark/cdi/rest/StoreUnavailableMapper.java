package dev.bulwark.cdi.rest;

import dev.bulwark.StoreUnavailableException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * The store unreachable under {@code fail-closed}: 503. The exception's message, which can name the
 * store's host, stays out of the answer.
 */
@Priority(ProblemResponses.PRIORITY)
public class StoreUnavailableMapper implements ExceptionMapper<StoreUnavailableException> {

  @Override
  public Response toResponse(StoreUnavailableException e) {
    return problem(e).toResponse(e);
  }

  static ProblemResponses.Problem problem(StoreUnavailableException e) {
    String limit = e.getLimitName();
    return ProblemResponses.Problem.of(
        Response.Status.SERVICE_UNAVAILABLE,
        "store-unavailable",
        "Limit store unavailable",
        limit == null
            ? "The store that keeps the limits cannot be reached."
            : "The store that keeps limit '" + limit + "' cannot be reached.",
        limit,
        null);
  }
}
