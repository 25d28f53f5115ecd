package dev.bulwark.it.payara.app;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** HTTP face of {@link GuardedService} and of the gates the tests open and read. */
@Path("/")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class GuardedResource {

  @Inject GuardedService service;
  @Inject Gates gates;

  @GET
  @Path("ping")
  public String ping() {
    return "pong";
  }

  @GET
  @Path("bulkhead/{gate}/{id}")
  public String bulkhead(@PathParam("gate") String gate, @PathParam("id") int id) {
    return service.bulkhead(gate, id);
  }

  @GET
  @Path("configured/{gate}/{id}")
  public String configured(@PathParam("gate") String gate, @PathParam("id") int id) {
    return service.configured(gate, id);
  }

  @GET
  @Path("fallback/{gate}/{id}")
  public String fallback(@PathParam("gate") String gate, @PathParam("id") int id) {
    return service.withFallback(gate, id);
  }

  @GET
  @Path("rated/{id}")
  public String rated(@PathParam("id") int id) {
    return service.rated(id);
  }

  @POST
  @Path("accounts/{account}/writes")
  public String write(@PathParam("account") String account) {
    return Long.toString(service.write(account));
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
