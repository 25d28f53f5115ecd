package dev.bulwark.quarkus.rest;

import dev.bulwark.BulkheadFullException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** An application's own mapper of a Bulwark exception, as JAX-RS defines one, no priority set. */
@Provider
public class OwnBulkheadMapper implements ExceptionMapper<BulkheadFullException> {

  @Override
  public Response toResponse(BulkheadFullException e) {
    return Response.status(509)
        .type(MediaType.TEXT_PLAIN)
        .entity("own: " + e.getLimitName())
        .build();
  }
}
