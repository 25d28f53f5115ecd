package dev.bulwark.tck;

import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a store module gives the contract suites: how to open its store as one more JVM of a
 * service, what it can and cannot show in a test, and how to clean up. A suite creates one fixture
 * per test and closes it afterwards; every store a fixture opens starts from a clean state (a fresh
 * key prefix, schema or table set), so the suites use fixed limit names.
 *
 * <p>Only {@link #openStore}, {@link #jvmsShareState}, {@link #clockNanos} and {@link #storeName}
 * are required; the defaults describe a store that delivers hand-overs within the call that grants
 * them and whose leases, if they expire, can be waited out in real time. A JPA table store, say,
 * opens one store per "JVM" on a schema of its own per fixture, reads the database's clock, and
 * drops the schema in {@link #cleanUp}.
 */
public abstract class StoreFixture implements AutoCloseable {

  private final List<StoreJvm> opened = new ArrayList<>();

  /**
   * Opens the store as the engine of one more JVM would: with its own instance identity (if the
   * store has one) and {@code listener} as the {@link GrantListener} of that JVM.
   */
  protected abstract BulwarkStore openStore(GrantListener listener);

  /**
   * Whether stores opened by this fixture share their state, as the JVMs of one service do. A store
   * of one JVM (the local store) says no, and the suites skip the promises that concern several
   * JVMs (cross-JVM FIFO, definitions recorded by another JVM).
   */
  public abstract boolean jvmsShareState();

  /**
   * The store's clock, in nanoseconds since the epoch, as its rate limits read it (fixed windows
   * are aligned to this epoch). A shared store reads its server's clock; one round trip is fine.
   */
  public abstract long clockNanos();

  /** The store's name in assumption messages. */
  public abstract String storeName();

  /**
   * For a store that delivers hand-overs asynchronously: makes it deliver {@code granted(marker,
   * 0)} to the listener of {@code store} after every hand-over it published before this call (on
   * Redis: a message on the JVM's wake-up channel, which arrives in order). A store that tells the
   * listener inside the call that grants (the local store) returns false: there is nothing in
   * flight.
   */
  public boolean sendWakeUpMarker(BulwarkStore store, long marker) {
    return false;
  }

  /**
   * A lease short enough for the expiry tests to wait out, or empty when this store cannot let a
   * lease run out within a test (they are then skipped). Only asked of a store whose leases expire.
   */
  public Optional<Duration> shortLease() {
    return Optional.of(Duration.ofMillis(400));
  }

  /**
   * Lets at least {@code duration} pass on the store's clock. The default waits in real time; a
   * store with a clock a test can move may override this.
   */
  public void letPass(Duration duration) throws InterruptedException {
    long deadline = System.nanoTime() + duration.toNanos();
    for (long left = duration.toNanos(); left > 0; left = deadline - System.nanoTime()) {
      Thread.sleep(Math.max(1, left / 1_000_000));
    }
  }

  /** Removes what the test left in the store (keys, rows), after every store has been closed. */
  protected void cleanUp() {}

  /** Opens one more JVM; the fixture closes it. */
  public final StoreJvm openJvm() {
    StoreJvm jvm = new StoreJvm(this, opened.size() + 1);
    opened.add(jvm);
    return jvm;
  }

  @Override
  public final void close() {
    try {
      for (StoreJvm jvm : opened) {
        jvm.store().close();
      }
    } finally {
      cleanUp();
    }
  }
}
