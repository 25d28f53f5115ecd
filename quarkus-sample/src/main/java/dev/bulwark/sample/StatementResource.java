package dev.bulwark.sample;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /statements/{account}}: a non-blocking endpoint (it returns a {@code Uni}, so it runs
 * on the event loop) guarded by the {@code statement-renderer} bulkhead, which waits for a permit
 * without blocking the loop.
 */
@Path("/statements")
@Produces(MediaType.APPLICATION_JSON)
public class StatementResource {

  @Inject StatementService statements;

  @GET
  @Path("/{account}")
  public Uni<StatementService.Statement> statement(@PathParam("account") String account) {
    return statements.render(account);
  }
}
