package dev.bulwark.cdi.rest;

import dev.bulwark.LockTimeoutException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * A lock not granted in time: 503, as the holder is expected to finish. The lock key stays out of
 * the answer (see {@link ProblemResponses}).
 */
@Priority(ProblemResponses.PRIORITY)
public class LockTimeoutMapper implements ExceptionMapper<LockTimeoutException> {

  @Override
  public Response toResponse(LockTimeoutException e) {
    return problem(e).toResponse(e);
  }

  static ProblemResponses.Problem problem(LockTimeoutException e) {
    return ProblemResponses.Problem.of(
        Response.Status.SERVICE_UNAVAILABLE,
        "lock-timeout",
        "Lock not granted in time",
        "Lock '" + e.getLimitName() + "' was not granted within its waiting time.",
        e.getLimitName(),
        null);
  }
}
