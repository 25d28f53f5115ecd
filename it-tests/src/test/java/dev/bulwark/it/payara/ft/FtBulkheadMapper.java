package dev.bulwark.it.payara.ft;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * A rejection by Payara's own FT bulkhead is 429; Bulwark's {@code BulkheadFullException}, more
 * specific, keeps its own mapper (503), so the status tells which bulkhead rejected.
 */
@Provider
public class FtBulkheadMapper implements ExceptionMapper<BulkheadException> {

  @Override
  public Response toResponse(BulkheadException e) {
    return Response.status(429)
        .type(MediaType.TEXT_PLAIN)
        .entity(e.getClass().getSimpleName() + ": " + e.getMessage())
        .build();
  }
}
