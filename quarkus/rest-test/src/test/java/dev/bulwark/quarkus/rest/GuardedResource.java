package dev.bulwark.quarkus.rest;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** The guarded methods over HTTP; nothing here maps an exception. */
@Path("/")
public class GuardedResource {

  @Inject Guarded guarded;

  @GET
  @Path("report")
  public String report() {
    return guarded.report();
  }

  @GET
  @Path("quote")
  public String quote() {
    return guarded.quote();
  }

  @POST
  @Path("accounts/{account}")
  public String write(@PathParam("account") String account) {
    return guarded.write(account);
  }
}
