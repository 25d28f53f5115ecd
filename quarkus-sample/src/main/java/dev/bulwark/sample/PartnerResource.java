package dev.bulwark.sample;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /partner/quotes/{sku}}: guarded by the {@code partner-api} rate limit. */
@Path("/partner")
@Produces(MediaType.APPLICATION_JSON)
public class PartnerResource {

  @Inject PartnerService partner;

  @GET
  @Path("/quotes/{sku}")
  public PartnerService.Quote quote(@PathParam("sku") String sku) {
    return partner.quote(sku);
  }
}
