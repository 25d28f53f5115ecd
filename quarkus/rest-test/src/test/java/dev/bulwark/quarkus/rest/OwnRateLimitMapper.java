package dev.bulwark.quarkus.rest;

import dev.bulwark.RateLimitExceededException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** An application's own mapper of a Bulwark exception, in Quarkus REST's style. */
public class OwnRateLimitMapper {

  @ServerExceptionMapper
  public Response rateLimited(RateLimitExceededException e) {
    return Response.status(420)
        .type(MediaType.TEXT_PLAIN)
        .entity("own: " + e.getLimitName())
        .build();
  }
}
