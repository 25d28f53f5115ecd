package dev.bulwark.it.payara.app;

import dev.bulwark.BulkheadFullException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A full bulkhead is 503 Service Unavailable, with Bulwark's message as the body. */
@Provider
public class BulkheadFullMapper implements ExceptionMapper<BulkheadFullException> {

  @Override
  public Response toResponse(BulkheadFullException e) {
    return Response.status(Response.Status.SERVICE_UNAVAILABLE)
        .type(MediaType.TEXT_PLAIN)
        .entity(e.getClass().getSimpleName() + ": " + e.getMessage())
        .build();
  }
}
