package dev.bulwark.it.payara.invalid;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Answers only if the application was deployed at all. */
@Path("/ping")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class PingResource {

  @GET
  public String ping() {
    return "pong";
  }
}
