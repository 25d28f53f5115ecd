package dev.bulwark.spi;

import java.time.Duration;
import java.util.List;

/**
 * A shared store: three narrow primitives, lease renewal and lifecycle. Everything above it
 * (definitions, waiting, renewal scheduling, failure policy, events) lives once in the engine.
 */
public interface BulwarkStore extends AutoCloseable {

  PermitStore permits();

  RateStore rates();

  LockStore locks();

  /**
   * Whether held permits and locks expire unless renewed. A store that lives and dies with the JVM
   * (local) says no, and the engine then tracks no leases.
   */
  boolean leasesExpire();

  /**
   * Extends each lease to its {@link Lease#leaseMillis()} from now and returns the ones the store
   * no longer knows (expired and reclaimed, or released).
   *
   * @throws PartialRenewalException when only some leases could be renewed: it names the ones not
   *     renewed (to retry at once) and the lost ones among the rest
   * @throws StoreException when none could be renewed
   */
  List<Lease> renew(List<Lease> leases);

  /**
   * Whether the store applies a batch of operations ({@link PermitStore#apply}, {@link
   * LockStore#apply}, {@link RateStore#reserveEach}) cheaper than one at a time. The engine then
   * gathers the operations this JVM's callers start on one limit while a call for it is in flight
   * and sends them together; otherwise it calls the single operations. The default: no.
   */
  default boolean batches() {
    return false;
  }

  /**
   * How many batches of one limit the engine hands the store before the first is answered: above 1
   * for a store whose {@code applyAsync} and {@code reserveEachAsync} return before the round trip
   * (a pipelined connection), so an operation that arrives while a batch is out goes at once in the
   * next. The default, 1: one batch of a limit at a time.
   */
  default int batchesInFlight() {
    return 1;
  }

  /**
   * How long a waiter trusts the {@link GrantListener} before it polls once: a bound on the delay a
   * lost wake-up can cost. {@link Duration#ZERO} for a store whose wake-ups cannot be lost. For a
   * store that tells when one may have been lost ({@link #wakeUpEpoch()}), the period of the one
   * check this JVM's waiters of a limit share (it finds room no hand-over announced, such as a dead
   * holder's lease running out).
   */
  Duration wakeUpCheckInterval();

  /**
   * Where this JVM's wake-ups stand, so that a waiter polls only when one can have been lost, not
   * once per {@link #wakeUpCheckInterval()}: a number that stays the same as long as no hand-over
   * notice to this JVM can have been lost since it was read, or -1 while one can be lost right now
   * (the store's channel for notices is down) or the store cannot tell.
   *
   * <p>The store's promise: after a notice is lost, the number changes (once the channel is back,
   * to a value that is not -1) and the store then calls {@link GrantListener#wakeUpsChanged()}. A
   * waiter that read the same value, not -1, before its request reached the store and again now has
   * missed nothing; a waiter that reads a new value polls once, which finds any grant lost before
   * the channel came back. The default, -1: waiters poll once per check interval.
   */
  default long wakeUpEpoch() {
    return -1;
  }

  /**
   * What the store knows about its connection now, without a round trip (a readiness check calls it
   * on every probe). The default, for a store that cannot tell: {@link StoreStatus#REACHABLE}.
   */
  default StoreStatus status() {
    return StoreStatus.REACHABLE;
  }

  /**
   * Asks the store one cheap question, to learn whether it answers again after an outage: the
   * engine calls it once per {@link #reconnectInterval()} while the last call found the store
   * unreachable, so readiness turns UP again without waiting for a guarded call. The default, for a
   * store that cannot be unreachable: nothing to ask.
   *
   * @throws StoreException when the store cannot be reached
   */
  default void probe() {}

  /** How often the engine probes the store while it is unreachable (see {@link #probe()}). */
  default Duration reconnectInterval() {
    return Duration.ofSeconds(1);
  }

  @Override
  void close();
}
