package dev.bulwark.it.cluster.harness;

import java.time.Duration;

/**
 * A store the multi-JVM scenarios run on: Redis (standalone, Cluster), or the JPA store on
 * PostgreSQL, MariaDB or H2. Each run gets a space of its own in it ({@link #open}), so runs never
 * see each other's state; the scenarios themselves do not know which store they run on.
 */
public interface StoreUnderTest {

  /**
   * Makes the space of run {@code id} (a key prefix, a schema, a database), resolving the server
   * through {@link dev.bulwark.tck.TestServices} — which skips the test when there is none.
   */
  public StoreSpace open(String id, java.nio.file.Path runDir);

  /**
   * How far apart two waiters' entries may lie and still not count as served out of order: the
   * spread of the store's way of waking a waiter in another JVM (a Redis publish; a NOTIFY; a look
   * every check interval). Hand-overs made in queue order reach their JVMs within this of each
   * other.
   */
  public default Duration wakeUpSpread() {
    return Duration.ofMillis(3);
  }

  /**
   * Whether requests that reach the store at the same moment are queued in the order they arrived.
   * A database grants a contended row lock to its waiters in its own order, which decides the order
   * they queue in.
   */
  public default boolean queuesInArrivalOrder() {
    return true;
  }
}
