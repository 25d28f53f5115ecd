package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import dev.bulwark.event.LeaseExpiredAtRelease;
import dev.bulwark.event.LeaseLost;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.StoreContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A call that ended well within its lease, whose release then reaches Redis only after more than a
 * lease (a store slowed between the call's end and its release): the lease is renewed until the
 * release is answered, so the release frees the permit and nothing reports that the call ran
 * unguarded or lost its lease.
 */
@ExtendWith(RedisExtension.class)
@Timeout(60)
class SlowReleaseTest {

  private static final long LEASE_MILLIS = 1_000;

  @Test
  void aReleaseDelayedPastTheLeaseFindsItsPermitStillHeldAndReportsNothingFalse(TestRedis test)
      throws Exception {
    ConcurrentLinkedQueue<BulwarkEvent> events = new ConcurrentLinkedQueue<>();
    SlowReleases slow = new SlowReleases();
    try (BulwarkEngine engine =
        BulwarkEngine.builder(
                ConfigLookup.of(
                    Map.of(
                        "bulwark.store",
                        SlowReleases.ID,
                        "bulwark.redis.url",
                        test.url(),
                        "bulwark.redis.key-prefix",
                        test.prefix(),
                        "bulwark.bulkhead.slow.value",
                        "1",
                        "bulwark.bulkhead.slow.lease",
                        LEASE_MILLIS + "ms")))
            .stores(List.of(slow))
            .listeners(List.<BulwarkListener>of(events::add))
            .start()) {
      BulkheadHandle bulkhead = engine.programmatic().bulkhead("slow");

      assertThat(bulkhead.call(() -> "done")).isEqualTo("done");

      assertThat(slow.releases).as("releases the store answered").containsExactly(true);
      assertThat(bulkhead.inspect().holders()).as("the permit is free in Redis").isEmpty();
      assertThat(events)
          .as("no call is reported to have run unguarded")
          .noneMatch(e -> e instanceof LeaseExpiredAtRelease || e instanceof LeaseLost);
    }
  }

  /** The Redis store whose permit releases reach Redis only after twice the lease. */
  private static final class SlowReleases implements BulwarkStoreProvider {

    static final String ID = "redis-slow-releases";

    final ConcurrentLinkedQueue<Boolean> releases = new ConcurrentLinkedQueue<>();

    @Override
    public String id() {
      return ID;
    }

    @Override
    public BulwarkStore open(StoreContext context) {
      BulwarkStore redis = new RedisStoreProvider().open(context);
      PermitStore permits = redis.permits();
      return ForwardingStore.withPermits(
          redis,
          new PermitStore() {
            @Override
            public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
              return permits.acquire(spec, requestId, mayQueue);
            }

            @Override
            public Grant poll(PermitSpec spec, long requestId) {
              return permits.poll(spec, requestId);
            }

            @Override
            public Grant cancel(PermitSpec spec, long requestId) {
              return permits.cancel(spec, requestId);
            }

            @Override
            public Optional<String> define(PermitSpec spec) {
              return permits.define(spec);
            }

            @Override
            public boolean release(PermitSpec spec, long requestId) {
              LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2 * LEASE_MILLIS));
              boolean released = permits.release(spec, requestId);
              releases.add(released);
              return released;
            }

            @Override
            public BulkheadSnapshot inspect(PermitSpec spec) {
              return permits.inspect(spec);
            }
          });
    }
  }
}
