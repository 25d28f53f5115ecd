package dev.bulwark.sample;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code POST /accounts/{id}/deposits} under the write lock of {@code accounts}/{@code id}, {@code
 * GET /accounts/{id}} under its read lock.
 */
@Path("/accounts")
@Produces(MediaType.APPLICATION_JSON)
public class AccountResource {

  @Inject AccountService accounts;

  @GET
  @Path("/{id}")
  public AccountService.Account get(@PathParam("id") String id) {
    return accounts.get(id);
  }

  @POST
  @Path("/{id}/deposits")
  @Consumes(MediaType.APPLICATION_JSON)
  public AccountService.Account deposit(@PathParam("id") String id, Deposit deposit) {
    return accounts.deposit(id, deposit.amountCents());
  }

  /** The body of a deposit. */
  public record Deposit(long amountCents) {}
}
