package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.Permit;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.RateLimitType;
import dev.bulwark.StoreUnavailableException;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.config.Origin;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.outage.StoreOutage;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.Granted;
import dev.bulwark.event.LeaseExpiredAtRelease;
import dev.bulwark.event.LeaseLost;
import dev.bulwark.event.LimitType;
import dev.bulwark.event.PassedThrough;
import dev.bulwark.event.Rejected;
import dev.bulwark.event.RejectionReason;
import dev.bulwark.event.Released;
import dev.bulwark.event.StoreOutageEnded;
import dev.bulwark.event.StoreOutageStarted;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The events each limit fires, with why and how long, and the store's outages. */
class EventsTest {

  private static final BulkheadDefinition BULKHEAD =
      new BulkheadDefinition(
          "evented",
          Origin.programmatic(),
          true,
          1,
          Duration.ZERO,
          Duration.ofSeconds(30),
          Map.of());

  private final SwitchableStore[] store = new SwitchableStore[1];
  private final List<BulwarkEvent> events = new CopyOnWriteArrayList<>();

  private BulwarkEngine engine(String policy) {
    return BulwarkEngine.builder(
            ConfigLookup.of(
                Map.of("bulwark.store", SwitchableStore.ID, "bulwark.failure-policy", policy)))
        .stores(List.of(SwitchableStore.provider(store)))
        .listeners(List.of(events::add))
        .start();
  }

  @Test
  void aGrantARejectionAndAReleaseCarryTheirTimes() throws Exception {
    try (BulwarkEngine engine = engine("fail-closed")) {
      BulkheadLimiter limiter = engine.bulkhead(BULKHEAD);
      Permit permit = limiter.acquire();
      assertThat(limiter.tryAcquire()).isNull();
      long timedOutAfter = System.nanoTime();
      assertThatThrownBy(() -> limiter.acquire(TimeUnit.MILLISECONDS.toNanos(50)))
          .isInstanceOf(BulkheadFullException.class);
      long waitedAtMost = System.nanoTime() - timedOutAfter;
      permit.close();

      assertThat(events).hasSize(4);
      assertThat(events.get(0)).isInstanceOf(Granted.class);
      assertThat((Rejected) events.get(1))
          .isEqualTo(
              new Rejected(
                  LimitType.BULKHEAD,
                  "evented",
                  "",
                  RejectionReason.FULL,
                  ((Rejected) events.get(1)).waited()));
      Rejected timedOut = (Rejected) events.get(2);
      assertThat(timedOut.reason()).isEqualTo(RejectionReason.TIMED_OUT);
      assertThat(timedOut.waited())
          .isBetween(Duration.ofMillis(50), Duration.ofNanos(waitedAtMost));
      Released released = (Released) events.get(3);
      assertThat(released.held()).isGreaterThanOrEqualTo(Duration.ofMillis(50));
    }
  }

  @Test
  void anInterruptedWaiterIsRejectedAsInterrupted() throws Exception {
    try (BulwarkEngine engine = engine("fail-closed")) {
      BulkheadLimiter limiter = engine.bulkhead(BULKHEAD);
      try (Permit held = limiter.acquire()) {
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> limiter.acquire(TimeUnit.SECONDS.toNanos(10)))
            .isInstanceOf(BulkheadFullException.class)
            .hasMessageContaining("Interrupted");
        assertThat(Thread.interrupted()).as("the flag is set again").isTrue();
      }
      assertThat(events)
          .filteredOn(Rejected.class::isInstance)
          .extracting(e -> ((Rejected) e).reason())
          .containsExactly(RejectionReason.INTERRUPTED);
    }
  }

  @Test
  void anOutageIsReportedOnceWhenItStartsAndOnceWhenItEnds() {
    try (BulwarkEngine engine = engine("fail-closed")) {
      BulkheadLimiter limiter = engine.bulkhead(BULKHEAD);
      store[0].down = true;
      for (int i = 0; i < 3; i++) {
        assertThatThrownBy(limiter::acquire).isInstanceOf(StoreUnavailableException.class);
      }
      store[0].down = false;
      limiter.acquire().close();
      limiter.acquire().close();

      assertThat(events).filteredOn(StoreOutageStarted.class::isInstance).hasSize(1);
      assertThat(events).filteredOn(StoreOutageEnded.class::isInstance).hasSize(1);
      assertThat(events)
          .filteredOn(Rejected.class::isInstance)
          .extracting(e -> ((Rejected) e).reason())
          .containsExactly(
              RejectionReason.STORE_DOWN, RejectionReason.STORE_DOWN, RejectionReason.STORE_DOWN);
      assertThat(
              events.indexOf(
                  events.stream()
                      .filter(StoreOutageEnded.class::isInstance)
                      .findFirst()
                      .orElseThrow()))
          .as("the outage ends before the next grant is reported")
          .isLessThan(
              events.indexOf(
                  events.stream().filter(Granted.class::isInstance).findFirst().orElseThrow()));
    }
  }

  @Test
  void failOpenReportsTheCallItLetThrough() {
    try (BulwarkEngine engine = engine("fail-open")) {
      BulkheadLimiter limiter = engine.bulkhead(BULKHEAD);
      store[0].down = true;
      limiter.acquire().close();
      assertThat(events)
          .as("a call let through holds no permit: it is neither granted nor released")
          .filteredOn(e -> !(e instanceof StoreOutageStarted))
          .containsExactly(new PassedThrough(LimitType.BULKHEAD, "evented", ""));
      assertThat(limiter.stats().passedThrough()).isEqualTo(1);
    }
  }

  @Test
  void theEngineShowsTheOutageCallsAreInUntilTheStoreAnswersAgain() {
    try (BulwarkEngine engine = engine("fail-closed")) {
      BulkheadLimiter limiter = engine.bulkhead(BULKHEAD);
      assertThat(engine.outage()).isEmpty();
      store[0].down = true;
      assertThatThrownBy(limiter::acquire).isInstanceOf(StoreUnavailableException.class);

      StoreOutage outage = engine.outage().orElseThrow();
      assertThat(outage.store()).isEqualTo(SwitchableStore.ID);
      assertThat(outage.cause()).isNotBlank();
      assertThatThrownBy(limiter::acquire).isInstanceOf(StoreUnavailableException.class);
      assertThat(engine.outage()).as("the same outage, from its first failure").contains(outage);

      store[0].down = false;
      limiter.acquire().close();
      assertThat(engine.outage()).isEmpty();
    }
  }

  @Test
  void theOutageEndsWhenTheStoreAnswersTheEnginesProbeWithNoCall() throws Exception {
    try (BulwarkEngine engine = engine("fail-closed")) {
      BulkheadLimiter limiter = engine.bulkhead(BULKHEAD);
      store[0].down = true;
      assertThatThrownBy(limiter::acquire).isInstanceOf(StoreUnavailableException.class);
      assertThat(engine.outage()).isPresent();

      store[0].down = false; // from here on, no call: the probe alone finds the store back
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      // the outage is over before its end is told to the listeners, on the probe's thread
      while (engine.outage().isPresent()
          || events.stream().noneMatch(StoreOutageEnded.class::isInstance)) {
        assertThat(System.nanoTime() - deadline).as("the outage ends").isNegative();
        Thread.sleep(20);
      }
      assertThat(events).filteredOn(StoreOutageEnded.class::isInstance).hasSize(1);
    }
  }

  @Test
  void aLeaseTheStoreLostIsReportedWhileTheCallRunsAndAgainAtItsRelease() throws Exception {
    try (BulwarkEngine engine = engine("fail-closed")) {
      LockDefinition definition =
          new LockDefinition(
              "ledger",
              Origin.programmatic(),
              true,
              LockMode.WRITE,
              Duration.ZERO,
              Duration.ofMillis(300),
              Map.of());
      KeyedLock lock = engine.lock(definition);
      LockPermit permit = lock.lock("acct-1", LockMode.WRITE);
      store[0].revokeAll = true;
      Thread.sleep(110); // a third of the lease: due
      engine.leaseRenewer().orElseThrow().renewDue();
      permit.close();

      assertThat(events).contains(new LeaseLost(LimitType.LOCK, "ledger", "acct-1"));
      assertThat(events).contains(new LeaseExpiredAtRelease(LimitType.LOCK, "ledger", "acct-1"));
      assertThat(events)
          .filteredOn(Released.class::isInstance)
          .extracting(e -> ((Released) e).key())
          .containsExactly("acct-1");
    }
  }

  @Test
  void aRateLimitReportsGrantsAndRejectionsAndNoRelease() {
    try (BulwarkEngine engine = engine("fail-closed")) {
      RateLimiter limiter =
          engine.rateLimiter(
              new RateLimitDefinition(
                  "rated",
                  Origin.programmatic(),
                  true,
                  1,
                  Duration.ofHours(1),
                  RateLimitType.FIXED,
                  Duration.ZERO,
                  Map.of()));
      limiter.acquire();
      assertThatThrownBy(limiter::acquire).isInstanceOf(RateLimitExceededException.class);
      assertThat(events).hasSize(2);
      assertThat(events.get(0)).isInstanceOf(Granted.class);
      assertThat(((Rejected) events.get(1)).reason()).isEqualTo(RejectionReason.FULL);
    }
  }

  @Test
  void withoutAListenerNoEventLinkIsInTheChain() {
    try (BulwarkEngine withListener = engine("fail-closed");
        BulwarkEngine without =
            BulwarkEngine.start(
                ConfigLookup.of(Map.of("bulwark.store", SwitchableStore.ID)),
                List.of(SwitchableStore.provider(new SwitchableStore[1])))) {
      // the outermost link (package-private in dev.bulwark.core.chain), by name
      assertThat(withListener.bulkhead(BULKHEAD).chain().getClass().getSimpleName())
          .isEqualTo("EventLink");
      assertThat(without.bulkhead(BULKHEAD).chain().getClass().getSimpleName())
          .isEqualTo("CountingLink");
    }
  }

  @Test
  void aListenerThatThrowsNeverReachesTheCall() {
    try (BulwarkEngine engine =
        BulwarkEngine.builder(ConfigLookup.of(Map.of()))
            .listeners(
                List.of(
                    event -> {
                      throw new IllegalStateException("listener bug");
                    },
                    events::add))
            .start()) {
      engine.bulkhead(BULKHEAD).acquire().close();
      assertThat(events).hasSize(2).as("the second listener still hears everything");
    }
  }
}
