package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreException;
import dev.bulwark.tck.OutageRelay;
import dev.bulwark.tck.TestServices;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Queued requests whose callers gave up during a database outage (their cancel could not reach the
 * database) must not keep the permit from live callers once it is back: a permit the holder could
 * not release comes back after its lease, and a permit handed to an abandoned request lives no
 * longer than that request's queued lease, which nobody renews any more. Without that, each
 * abandoned request would hold the permit for a whole lease of its own while nobody works.
 */
class AbandonedWaitersTest {

  private static final long LEASE_MILLIS = 5_000;
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private final JpaStoreFixture fixture =
      new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);

  @AfterEach
  void dropTables() {
    fixture.close();
  }

  @Test
  void requestsAbandonedInAnOutageDoNotHoldThePermitAfterItForALeaseOfTheirOwn() throws Exception {
    TestServices.Endpoint postgres = TestServices.postgresql();
    PermitSpec spec = new PermitSpec("abandoned", 1, LEASE_MILLIS);
    try (OutageRelay relay = new OutageRelay(postgres.host(), postgres.port())) {
      relay.open();
      Map<String, String> config = fixture.config();
      config.put("url", "jdbc:postgresql://127.0.0.1:" + relay.port() + "/test");
      config.put("connect-timeout", "500ms");
      config.put("reconnect-interval", "200ms");
      try (JpaStore store = fixture.open(config, (r, t) -> {})) {
        long held = System.nanoTime();
        assertThat(store.permits().acquire(spec, 1, false).isGranted()).isTrue();
        assertThat(store.permits().acquire(spec, 2, true)).isEqualTo(Grant.QUEUED);
        assertThat(store.permits().acquire(spec, 3, true)).isEqualTo(Grant.QUEUED);

        relay.close();
        // the callers give up: neither the holder's release nor the waiters' cancels get through
        assertThatThrownBy(() -> store.permits().release(spec, 1))
            .isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> store.permits().cancel(spec, 2))
            .isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> store.permits().cancel(spec, 3))
            .isInstanceOf(StoreException.class);
        relay.open();

        // a live caller queues and waits as the engine would: polling, its lease renewed
        Lease lease = new Lease(Lease.Kind.PERMIT, spec.name(), "", 4, LEASE_MILLIS);
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        Grant grant = answered(() -> store.permits().acquire(spec, 4, true), deadline);
        long renewed = System.nanoTime();
        while (!grant.isGranted() && System.nanoTime() - deadline < 0) {
          Thread.sleep(100);
          if (System.nanoTime() - renewed > LEASE_MILLIS * 1_000_000 / 3) {
            store.renew(List.of(lease));
            renewed = System.nanoTime();
          }
          grant = store.permits().poll(spec, 4);
        }
        Duration waited = Duration.ofNanos(System.nanoTime() - held);

        assertThat(grant.isGranted()).as("the live caller is granted within %s", PATIENCE).isTrue();
        // the holder's lease ends LEASE after it was granted; the abandoned waiters' queued
        // leases about as soon: the live caller is next, not a lease of an abandoned one later
        assertThat(waited)
            .as("from the first grant to the live caller's, with leases of %d ms", LEASE_MILLIS)
            .isLessThan(Duration.ofMillis(LEASE_MILLIS * 3 / 2));
      }
    }
  }

  private static Grant answered(java.util.function.Supplier<Grant> call, long deadline)
      throws InterruptedException {
    while (true) {
      try {
        return call.get();
      } catch (StoreException e) {
        if (System.nanoTime() - deadline > 0) {
          throw new AssertionError("the store did not answer again in time", e);
        }
        Thread.sleep(100);
      }
    }
  }
}
