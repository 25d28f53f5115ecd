package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Permit;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.Origin;
import dev.bulwark.core.lease.LeaseRenewer;
import dev.bulwark.spi.Lease;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeaseRenewerTest {

  private final SwitchableStore[] store = new SwitchableStore[1];

  private BulwarkEngine engine() {
    return BulwarkEngine.start(
        ConfigLookup.of(Map.of("bulwark.store", SwitchableStore.ID)),
        List.of(SwitchableStore.provider(store)));
  }

  private static BulkheadDefinition bulkhead(Duration lease) {
    return new BulkheadDefinition(
        "renewed", Origin.programmatic(), true, 2, Duration.ZERO, lease, Map.of());
  }

  @Test
  void aHeldPermitIsRenewedOnceAThirdOfItsLeaseHasPassedAndNotAfterRelease() throws Exception {
    try (BulwarkEngine engine = engine()) {
      LeaseRenewer renewer = engine.leaseRenewer().orElseThrow();
      BulkheadLimiter limiter = engine.bulkhead(bulkhead(Duration.ofHours(1)));
      Permit permit = limiter.acquire();
      assertThat(renewer.size()).isEqualTo(1);
      renewer.renewDue();
      assertThat(store[0].renewals).as("not due within the first third").isEmpty();
      permit.close();
      assertThat(renewer.size()).isZero();
    }
  }

  /**
   * The store starts a lease when it grants it, before the answer leaves: an answer that took half
   * the lease to come back finds the lease due at once, not a third of a lease after it arrived.
   */
  @Test
  void aLeaseIsCountedFromWhenItsAcquireWasSentNotFromItsAnswer() throws Exception {
    try (BulwarkEngine engine = engine()) {
      LeaseRenewer renewer = engine.leaseRenewer().orElseThrow();
      BulkheadLimiter limiter = engine.bulkhead(bulkhead(Duration.ofMillis(300)));
      store[0].acquireReplyDelay = Duration.ofMillis(150);
      Permit permit = limiter.acquire();
      renewer.renewDue();
      synchronized (store[0]) {
        assertThat(store[0].renewals).as("due as soon as the late answer came").isNotEmpty();
      }
      permit.close();
    }
  }

  @Test
  void dueLeasesAreRenewedInOneBatch() throws Exception {
    try (BulwarkEngine engine = engine()) {
      LeaseRenewer renewer = engine.leaseRenewer().orElseThrow();
      BulkheadLimiter limiter = engine.bulkhead(bulkhead(Duration.ofMillis(30)));
      Permit first = limiter.acquire();
      Permit second = limiter.acquire();
      Thread.sleep(15); // two thirds of the lease: both are due whatever the scheduler does
      renewer.renewDue();
      synchronized (store[0]) {
        assertThat(store[0].renewals).isNotEmpty();
        List<Lease> last = store[0].renewals.get(store[0].renewals.size() - 1);
        assertThat(last).extracting(Lease::name).containsOnly("renewed");
        assertThat(last).extracting(Lease::leaseMillis).containsOnly(30L);
        assertThat(store[0].renewals.stream().mapToInt(List::size).sum()).isGreaterThanOrEqualTo(2);
      }
      first.close();
      second.close();
    }
  }

  @Test
  void aLeaseTheStoreLostIsCountedAndNoLongerRenewed() throws Exception {
    try (BulwarkEngine engine = engine()) {
      LeaseRenewer renewer = engine.leaseRenewer().orElseThrow();
      BulkheadLimiter limiter = engine.bulkhead(bulkhead(Duration.ofMillis(30)));
      Permit permit = limiter.acquire();
      store[0].revokeAll = true;
      Thread.sleep(15); // due now
      renewer.renewDue();
      assertThat(renewer.size()).isZero();
      assertThat(limiter.stats().leasesLost()).isEqualTo(1);
      permit.close();
      assertThat(limiter.stats().leasesLost()).isEqualTo(1);
    }
  }

  @Test
  void theTickFollowsTheShortestLeaseInUse() {
    try (BulwarkEngine engine = engine()) {
      LeaseRenewer renewer = engine.leaseRenewer().orElseThrow();
      assertThat(renewer.tickMillis()).isEqualTo(100);
      engine.bulkhead(bulkhead(Duration.ofMillis(300)));
      assertThat(renewer.tickMillis()).as("a tenth of 300 ms").isEqualTo(30);
      engine.bulkhead(bulkhead(Duration.ofHours(1)));
      assertThat(renewer.tickMillis()).as("a longer lease keeps the shorter tick").isEqualTo(30);
    }
  }

  @Test
  void aLeaseIsNeverTruncatedToZeroOnItsWayToTheStore() {
    try (BulwarkEngine engine = engine()) {
      assertThat(engine.bulkhead(bulkhead(Duration.ofNanos(300_000_001))).spec().leaseMillis())
          .isEqualTo(301);
      assertThat(engine.bulkhead(bulkhead(Duration.ofNanos(500_000))).spec().leaseMillis())
          .isEqualTo(1);
    }
  }

  @Test
  void afterAPartialFailureOnlyTheLeasesNotRenewedAreDueAtTheNextTick() throws Exception {
    try (BulwarkEngine engine = engine()) {
      LeaseRenewer renewer = engine.leaseRenewer().orElseThrow();
      renewer.close(); // no ticks of its own: this test ticks by hand
      // leases of 3 s, due every second: the second tick below comes well within a second of the
      // first, so the lease renewed by the first is not due again even on a stalled machine
      Permit reachable = engine.bulkhead(bulkhead("reachable", Duration.ofSeconds(3))).acquire();
      Permit unreachable =
          engine.bulkhead(bulkhead("unreachable", Duration.ofSeconds(3))).acquire();
      store[0].unreachableLease = "unreachable";
      Thread.sleep(1_010); // a third of the lease: both due
      renewer.renewDue();
      store[0].unreachableLease = null;
      renewer.renewDue(); // at once, the next tick: only the lease that was not renewed is due

      synchronized (store[0]) {
        List<List<Lease>> renewals = store[0].renewals;
        assertThat(renewals.get(renewals.size() - 2))
            .extracting(Lease::name)
            .containsExactly("reachable");
        assertThat(renewals.get(renewals.size() - 1))
            .extracting(Lease::name)
            .containsExactly("unreachable");
      }
      reachable.close();
      unreachable.close();
    }
  }

  private static BulkheadDefinition bulkhead(String name, Duration lease) {
    return new BulkheadDefinition(
        name, Origin.programmatic(), true, 2, Duration.ZERO, lease, Map.of());
  }
}
