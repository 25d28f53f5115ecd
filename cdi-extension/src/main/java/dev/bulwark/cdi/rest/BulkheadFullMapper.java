package dev.bulwark.cdi.rest;

import dev.bulwark.BulkheadFullException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/** A full bulkhead: 503, the service sheds load it cannot take now. */
@Priority(ProblemResponses.PRIORITY)
public class BulkheadFullMapper implements ExceptionMapper<BulkheadFullException> {

  @Override
  public Response toResponse(BulkheadFullException e) {
    return problem(e).toResponse(e);
  }

  static ProblemResponses.Problem problem(BulkheadFullException e) {
    return ProblemResponses.Problem.of(
        Response.Status.SERVICE_UNAVAILABLE,
        "bulkhead-full",
        "Bulkhead full",
        "Bulkhead '" + e.getLimitName() + "' has no free permit within its waiting time.",
        e.getLimitName(),
        null);
  }
}
