package dev.bulwark.tck;

import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A store as one JVM of a service opened it, with a {@link GrantListener} that records every
 * hand-over the store tells it of, in order. Request ids count from 1 in every JVM, as they do in
 * the engine, so two JVMs use the same ids and a shared store must tell them apart.
 */
public final class StoreJvm {

  /** A request id the suites never use: marks the end of what a store delivered so far. */
  static final long MARKER = -1;

  /** How long a suite waits for a hand-over the store has certainly made before it fails. */
  static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(5);

  private final StoreFixture fixture;
  private final int number;
  private final BulwarkStore store;
  private final AtomicLong requestIds = new AtomicLong();
  private final List<HandOver> heard = new ArrayList<>();
  private long markersHeard;

  StoreJvm(StoreFixture fixture, int number) {
    this.fixture = fixture;
    this.number = number;
    this.store = fixture.openStore(this::record);
  }

  public BulwarkStore store() {
    return store;
  }

  public PermitStore permits() {
    return store.permits();
  }

  public LockStore locks() {
    return store.locks();
  }

  public RateStore rates() {
    return store.rates();
  }

  /** A request id not used before in this JVM. */
  public long newRequestId() {
    return requestIds.incrementAndGet();
  }

  /**
   * Every hand-over this JVM's listener was told of until now, in order, including those the store
   * published but had not delivered yet when this was called.
   */
  public List<HandOver> handOvers() {
    long target;
    synchronized (heard) {
      target = markersHeard + 1;
    }
    if (fixture.sendWakeUpMarker(store, MARKER)) {
      long deadline = System.nanoTime() + DELIVERY_TIMEOUT.toNanos();
      synchronized (heard) {
        while (markersHeard < target) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            throw new AssertionError(
                this + " did not receive its wake-up marker within " + DELIVERY_TIMEOUT);
          }
          try {
            TimeUnit.NANOSECONDS.timedWait(heard, left);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
          }
        }
      }
    }
    return handOversHeard();
  }

  /** The hand-overs the listener was told of so far, without waiting for any in flight. */
  public List<HandOver> handOversHeard() {
    synchronized (heard) {
      return List.copyOf(heard);
    }
  }

  /** The request ids of {@link #handOvers()}, in order. */
  public List<Long> handedOverRequests() {
    return handOvers().stream().map(HandOver::requestId).toList();
  }

  /**
   * Waits up to {@code timeout} until the listener is told that {@code requestId} was handed its
   * grant; returns that hand-over, or empty.
   */
  public Optional<HandOver> awaitHandOver(long requestId, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (heard) {
      while (true) {
        for (HandOver handOver : heard) {
          if (handOver.requestId() == requestId) {
            return Optional.of(handOver);
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return Optional.empty();
        }
        TimeUnit.NANOSECONDS.timedWait(heard, left);
      }
    }
  }

  private void record(long requestId, long fencingToken) {
    synchronized (heard) {
      if (requestId == MARKER) {
        markersHeard++;
      } else {
        heard.add(new HandOver(requestId, fencingToken));
      }
      heard.notifyAll();
    }
  }

  @Override
  public String toString() {
    return fixture.storeName() + " JVM " + number;
  }
}
