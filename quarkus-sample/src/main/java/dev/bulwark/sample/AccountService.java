package dev.bulwark.sample;

import dev.bulwark.DistributedLock;
import dev.bulwark.LockContext;
import dev.bulwark.LockKey;
import dev.bulwark.LockMode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Account balances kept in a ledger that has no transactions of its own: a deposit reads the
 * balance, talks to the ledger for a while and writes the new balance back. Without a lock two
 * deposits to one account would lose one of them; with {@code @DistributedLock(mode = WRITE)} on
 * the account's id they run one after the other, across every instance, while deposits to other
 * accounts and reads of other accounts go on in parallel.
 */
@ApplicationScoped
public class AccountService {

  private final ConcurrentMap<String, Account> accounts = new ConcurrentHashMap<>();
  private final Queue<Interval> calls = new ConcurrentLinkedQueue<>();

  @Inject SlowDownstream downstream;

  @ConfigProperty(name = "sample.accounts.write-duration", defaultValue = "100ms")
  Duration writeDuration;

  @ConfigProperty(name = "sample.accounts.read-duration", defaultValue = "10ms")
  Duration readDuration;

  /**
   * Adds {@code amountCents} to the account. The fencing token of the write lock travels with the
   * write, so the ledger can refuse a holder whose lock has been taken over.
   */
  @DistributedLock(name = "accounts", mode = LockMode.WRITE)
  public Account deposit(@LockKey String accountId, long amountCents) {
    long start = System.nanoTime();
    long token = LockContext.fencingToken();
    Account before = accounts.getOrDefault(accountId, Account.empty(accountId));
    if (token <= before.fencingToken()) {
      throw new IllegalStateException(
          "Stale fencing token "
              + token
              + " for account "
              + accountId
              + ": the ledger has seen "
              + before.fencingToken());
    }
    downstream.call(writeKey(accountId), writeDuration);
    Account after = new Account(accountId, before.balanceCents() + amountCents, token);
    accounts.put(accountId, after);
    calls.add(new Interval(accountId, "write", start, System.nanoTime(), token));
    return after;
  }

  /** The account as it is; many reads of one account run at once, but never beside a deposit. */
  @DistributedLock(name = "accounts", mode = LockMode.READ)
  public Account get(@LockKey String accountId) {
    long start = System.nanoTime();
    downstream.call(readKey(accountId), readDuration);
    Account account = accounts.getOrDefault(accountId, Account.empty(accountId));
    calls.add(new Interval(accountId, "read", start, System.nanoTime(), account.fencingToken()));
    return account;
  }

  /** Every deposit and read so far, in the order they finished. */
  public List<Interval> calls() {
    return List.copyOf(calls);
  }

  /** The key under which tests can hold deposits to {@code accountId} open. */
  public static String writeKey(String accountId) {
    return "ledger-write:" + accountId;
  }

  /** The key under which tests can hold reads of {@code accountId} open. */
  public static String readKey(String accountId) {
    return "ledger-read:" + accountId;
  }

  /**
   * An account's balance and the fencing token of the write that last changed it.
   *
   * @param id the account's id
   * @param balanceCents the balance in cents
   * @param fencingToken the fencing token of the last deposit, 0 before the first one
   */
  public record Account(String id, long balanceCents, long fencingToken) {
    static Account empty(String id) {
      return new Account(id, 0, 0);
    }
  }
}
