package dev.bulwark.redis;

import dev.bulwark.redis.client.LuaScript;
import dev.bulwark.redis.client.RedisOutageGate;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * One "JVM" of the Redis store for the model check: the store's own {@link RedisPermits}, {@link
 * RedisLocks} and {@link LeaseRenewal}, whose script calls pass through a seam that can lose the
 * reply of one call. A lost reply looks to the store as a broken connection does after the command
 * was sent: the store then gives the request up with a second script call, which the seam holds
 * back and hands to the check ({@link GiveUp}), so other JVMs' steps may run between the two.
 */
public final class ModelCheckJvm {

  /** A script call the store made after a lost reply, held back for the check to run later. */
  public record GiveUp(LuaScript script, List<String> keys, List<String> args)
      implements dev.bulwark.tck.modelcheck.GiveUp {}

  private final ControlledClock clock;
  private final RedisPermits permits;
  private final RedisLocks locks;
  private final LeaseRenewal renewal;

  /** Script calls until the one whose reply is lost, that one included; 0: none is lost. */
  private int callsToLoss;

  /** Whether the call whose reply is lost is not run at all: the check has run it already. */
  private boolean skipLostCall;

  private boolean holdingBack;
  private GiveUp heldBack;

  ModelCheckJvm(TestRedis test, ControlledClock clock, String instance) {
    this.clock = clock;
    // a zero reconnect interval: a lost reply must not make the next call fail fast
    RedisCalls calls =
        new RedisCalls(
            this::run,
            new RedisOutageGate("model-checked " + instance, Duration.ZERO, () -> {}),
            instance,
            "5ec2e7".repeat(5) + "00");
    this.permits = new RedisPermits(calls, test.keys(), this::told);
    this.locks = new RedisLocks(calls, test.keys(), this::told, null);
    this.renewal = new LeaseRenewal(calls, test.keys(), false);
  }

  /**
   * A hand-over a batch made to a request of this JVM, told from the batch's reply (as the engine's
   * listener is told, without pub/sub): request id and token.
   */
  public record Told(long requestId, long token) {}

  private final List<Told> told = new ArrayList<>();

  private void told(long requestId, long token) {
    told.add(new Told(requestId, token));
  }

  /** The hand-overs told from replies since the last drain, in order. */
  public List<Told> drainTold() {
    List<Told> drained = List.copyOf(told);
    told.clear();
    return drained;
  }

  public PermitStore permits() {
    return permits;
  }

  public LockStore locks() {
    return locks;
  }

  /** Renews as the engine's renewer does; returns the leases the store no longer knows. */
  public List<Lease> renew(List<Lease> leases) {
    return renewal.renew(leases);
  }

  /**
   * Makes {@code call} (one store operation) run its script and lose the reply: the call fails as
   * the store fails it, and the give-up the store then sends, if any, is returned unrun.
   */
  public Optional<GiveUp> loseReplyOf(Supplier<?> call) {
    return loseReplyOf(call, 1);
  }

  /**
   * Makes {@code call} (one store operation, or a batch the store may send as several script calls)
   * lose the reply of its script call number {@code nth} (1-based): the calls before it are
   * answered, that one runs and its reply is lost, and the call fails as the store fails it. The
   * give-up the store then sends, if any, is returned unrun; a second script call after the loss
   * fails the check (the store would send a batch on after a failed step).
   */
  public Optional<GiveUp> loseReplyOf(Supplier<?> call, int nth) {
    callsToLoss = nth;
    heldBack = null;
    try {
      call.get();
      throw new IllegalStateException(
          "the reply of the call was not lost: it made fewer than " + nth + " script calls");
    } catch (StoreException expected) {
      return Optional.ofNullable(heldBack);
    } finally {
      callsToLoss = 0;
      holdingBack = false;
      heldBack = null;
    }
  }

  /**
   * The give-up the store sends when the reply of {@code call}'s first script call is lost, held
   * back unrun; that call is not run either (the store applied it already, as a batch in flight),
   * so nothing in Redis changes.
   */
  public Optional<GiveUp> giveUpOf(Supplier<?> call) {
    skipLostCall = true;
    try {
      return loseReplyOf(call, 1);
    } finally {
      skipLostCall = false;
    }
  }

  /** Runs a give-up held back by {@link #loseReplyOf}, as the store would have run it. */
  public void run(GiveUp giveUp) {
    clock.run(giveUp.script(), giveUp.keys(), giveUp.args());
  }

  private Object run(LuaScript script, List<String> keys, List<String> args) {
    if (holdingBack) {
      if (heldBack != null) {
        throw new AssertionError("a second script call after a lost reply: " + script);
      }
      heldBack = new GiveUp(script, keys, args);
      throw new IllegalStateException("held back by the model check");
    }
    Object reply = skipLostCall && callsToLoss == 1 ? null : clock.run(script, keys, args);
    if (callsToLoss > 0 && --callsToLoss == 0) {
      holdingBack = true;
      throw new JedisConnectionException("reply lost (model check)");
    }
    return reply;
  }
}
