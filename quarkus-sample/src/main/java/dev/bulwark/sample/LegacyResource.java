package dev.bulwark.sample;

import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /legacy/report}: guarded by the {@code legacy-api} bulkhead. */
@Path("/legacy")
@Produces(MediaType.APPLICATION_JSON)
public class LegacyResource {

  @Inject LegacyService legacy;

  @GET
  @Path("/report")
  public LegacyService.LegacyReply report(
      @QueryParam("customer") @DefaultValue("acme") String customer) {
    return legacy.fetchReport(customer);
  }

  @GET
  @Path("/stats")
  public Stats stats() {
    return new Stats(legacy.running(), legacy.maxRunning(), legacy.completed());
  }

  /** How the bulkhead has been used so far. */
  public record Stats(int running, int maxConcurrent, long completed) {}
}
