package dev.bulwark.tck;

import dev.bulwark.tck.property.TestNames;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the stateful properties of the store SPI share (each a JUnit test running {@link
 * dev.bulwark.tck.property.Property#forAll} over an {@link dev.bulwark.tck.property.ActionChain}):
 * one {@link StoreFixture} per property, the simulated JVMs it opens (two when the store's JVMs
 * share state, else one), a fresh limit name per try (so that tries never see each other's
 * holders), and the hand-overs each JVM heard that no try has accounted for yet.
 */
@ExtendWith(TestNames.class)
public abstract class StoreProperties {

  /** A lease no run outlives: the model has no expiry. */
  protected static final long LEASE_MILLIS = 600_000;

  private static final AtomicLong RUNS = new AtomicLong();

  private StoreFixture fixture;
  private final List<StoreJvm> jvms = new ArrayList<>();
  private final List<Integer> handOversSeen = new ArrayList<>();

  /** A fixture for one property, on a clean store. */
  protected abstract StoreFixture createFixture();

  /**
   * How many tries each property runs on this store, before {@link
   * dev.bulwark.tck.property.Property#SCALE}: keep a property on a real server within a few
   * seconds.
   */
  protected int tries() {
    return 100;
  }

  @BeforeEach
  final void openFixture() {
    fixture = createFixture();
    jvms.add(fixture.openJvm());
    if (fixture.jvmsShareState()) {
      jvms.add(fixture.openJvm());
    }
    jvms.forEach(jvm -> handOversSeen.add(0));
  }

  @AfterEach
  final void closeFixture() {
    if (fixture != null) {
      fixture.close();
    }
  }

  /** The simulated JVMs, all on one store. */
  protected final List<StoreJvm> jvms() {
    return jvms;
  }

  /** The store's clock ({@link StoreFixture#clockNanos}), as its rate limits read it. */
  protected final long clockNanos() {
    return fixture.clockNanos();
  }

  /** A limit name no earlier try used. */
  protected static String freshName(String kind) {
    return "prop-" + kind + "-" + RUNS.incrementAndGet();
  }

  /**
   * Marks every hand-over heard so far as accounted for: a try starts from here, whatever the try
   * before it (failed, or cut short while shrinking) left unchecked.
   */
  protected final void forgetHandOvers() {
    for (int jvm = 0; jvm < jvms.size(); jvm++) {
      newHandOvers(jvm);
    }
  }

  /**
   * The request ids handed over to JVM {@code jvm} since the last call, in the order its listener
   * heard them (for a store that delivers them asynchronously: all it published until now).
   */
  protected final List<HandOver> newHandOvers(int jvm) {
    List<HandOver> all = jvms.get(jvm).handOvers();
    int seen = handOversSeen.get(jvm);
    handOversSeen.set(jvm, all.size());
    return all.subList(seen, all.size());
  }

  /**
   * {@link #newHandOvers} with each hand-over once, where first heard: a store that applies batches
   * may tell this JVM's listener of a hand-over to its own request as soon as the batch's reply
   * arrives and again when the hand-over's notice arrives, and a second signal of the same grant is
   * harmless. Only the same request with the same token is folded: a second grant shows.
   */
  protected final List<HandOver> newHandOversOnce(int jvm) {
    return List.copyOf(new LinkedHashSet<>(newHandOvers(jvm)));
  }
}
