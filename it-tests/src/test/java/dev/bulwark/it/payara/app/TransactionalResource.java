package dev.bulwark.it.payara.app;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

/** {@code GET /api/transactional/{gate}/{id}}: the failing transactional call, as HTTP 500. */
@Path("/transactional")
public class TransactionalResource {

  @Inject TransactionalService service;

  @GET
  @Path("{gate}/{id}")
  public Response call(@PathParam("gate") String gate, @PathParam("id") int id) {
    try {
      return Response.ok(service.failAfterGate(gate, id)).build();
    } catch (RuntimeException e) {
      return Response.serverError().entity(e.toString()).build();
    }
  }
}
