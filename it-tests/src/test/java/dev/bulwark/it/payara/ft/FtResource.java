package dev.bulwark.it.payara.ft;

import dev.bulwark.it.payara.app.Gates;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** HTTP face of {@link FtService} and of the gates the test opens and reads. */
@Path("/")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class FtResource {

  @Inject FtService service;
  @Inject Gates gates;
  @Inject Elsewhere elsewhere;

  @GET
  @Path("ping")
  public String ping() {
    return "pong";
  }

  @GET
  @Path("shared/{gate}/{id}")
  public String shared(@PathParam("gate") String gate, @PathParam("id") int id) {
    return service.shared(gate, id);
  }

  @GET
  @Path("local/{gate}/{id}")
  public String local(@PathParam("gate") String gate, @PathParam("id") int id) {
    return service.local(gate, id);
  }

  @POST
  @Path("elsewhere/hold")
  public String holdElsewhere() {
    return elsewhere.hold() ? "held" : "full";
  }

  @POST
  @Path("elsewhere/release")
  public String releaseElsewhere() {
    elsewhere.release();
    return "released";
  }

  @GET
  @Path("gates/{gate}")
  public String gate(@PathParam("gate") String gate) {
    return gates.get(gate).record();
  }

  @POST
  @Path("gates/{gate}/open")
  public String open(@PathParam("gate") String gate) {
    gates.get(gate).open();
    return gates.get(gate).record();
  }
}
