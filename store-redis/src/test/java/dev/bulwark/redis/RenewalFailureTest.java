package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.lease.LeaseRenewer;
import dev.bulwark.redis.client.RedisOutageGate;
import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PartialRenewalException;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateStore;
import dev.bulwark.spi.StoreContext;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * Renewal when one batch fails and another succeeds: the failure names the leases of the failed
 * batch, the others count as renewed, and the engine retries the failed ones at the next tick. A
 * batch fails for real: the bulkhead's state key, which the renewal script reads, holds a string.
 */
@ExtendWith(RedisExtension.class)
@Timeout(30)
class RenewalFailureTest {

  private static final PermitSpec A = new PermitSpec("a", 2, 10_000);
  private static final PermitSpec B = new PermitSpec("b", 2, 10_000);
  private static final long RENEWED_LEASE = 60_000;

  @Test
  void aFailedHashTagBatchIsNamedAndTheOtherBatchIsRenewed(TestRedis test) {
    RecordingStore store = test.open();
    assertThat(store.store().permits().acquire(A, 1, false).isGranted()).isTrue();
    assertThat(store.store().permits().acquire(B, 2, false).isGranted()).isTrue();
    Lease held = lease(A, 1);
    Lease neverAcquired = lease(A, 3);
    Lease failing = lease(B, 2);
    breakStateOf(test, B);

    try (RedisClient client = RedisClient.create(URI.create(test.url()))) {
      LeaseRenewal perHashTag = clusterStyleRenewal(client, test, store.instance());
      long heldUntil = expiryOf(test, A, store.member(1));

      PartialRenewalException partial =
          catchThrowableOfType(
              () -> perHashTag.renew(List.of(held, neverAcquired, failing)),
              PartialRenewalException.class);

      assertThat(partial).as("renewal with one failed batch").isNotNull();
      assertThat(partial.notRenewed()).containsExactly(failing);
      assertThat(partial.lost()).containsExactly(neverAcquired);
      assertThat(partial).hasMessageContaining("1 of 3 leases were not renewed", "WRONGTYPE");
      assertThat(expiryOf(test, A, store.member(1))).as("renewed").isGreaterThan(heldUntil);

      repairStateOf(test, B);
      long failingUntil = expiryOf(test, B, store.member(2));
      assertThat(perHashTag.renew(List.of(failing))).isEmpty();
      assertThat(expiryOf(test, B, store.member(2))).isGreaterThan(failingUntil);
    }
  }

  @Test
  void aFailedChunkOnOneServerIsNamedAndTheOtherChunkIsRenewed(TestRedis test) {
    // one server renews in chunks of 256 leases, one script call each
    RecordingStore store = test.open();
    assertThat(store.store().permits().acquire(A, 1, false).isGranted()).isTrue();
    assertThat(store.store().permits().acquire(B, 2, false).isGranted()).isTrue();
    Lease neverAcquired = lease(A, 3);
    Lease failing = lease(B, 2);
    List<Lease> leases = new ArrayList<>();
    leases.add(neverAcquired);
    leases.addAll(Collections.nCopies(255, lease(A, 1)));
    leases.add(failing);
    breakStateOf(test, B);

    PartialRenewalException partial =
        catchThrowableOfType(() -> store.store().renew(leases), PartialRenewalException.class);

    assertThat(partial).as("renewal with one failed chunk").isNotNull();
    assertThat(partial.notRenewed()).containsExactly(failing);
    assertThat(partial.lost()).containsExactly(neverAcquired);
  }

  @Test
  void theEngineRetriesTheLeaseOfAFailedBatchAtTheNextTick(TestRedis test) throws Exception {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.store", PerHashTagStore.ID);
    config.put("bulwark.redis.url", test.url());
    config.put("bulwark.redis.key-prefix", test.prefix());
    for (String name : List.of("a", "b")) {
      config.put("bulwark.bulkhead." + name + ".value", "1");
      config.put("bulwark.bulkhead." + name + ".lease", "3s");
    }
    try (BulwarkEngine engine =
        BulwarkEngine.start(ConfigLookup.of(config), List.of(PerHashTagStore.provider()))) {
      LeaseRenewer renewer = engine.leaseRenewer().orElseThrow();
      renewer.close(); // stops the renewer's own ticks: this test ticks by hand
      Permit a = engine.programmatic().bulkhead("a").acquire();
      Permit b = engine.programmatic().bulkhead("b").acquire();
      long acquired = System.nanoTime();
      test.redis().del(test.keys().bulkhead("a").holders()); // a's lease is lost
      breakStateOf(test, B); // b's batch fails
      String bHolder = test.redis().zrange(test.keys().bulkhead("b").holders(), 0, -1).get(0);
      long bUntil = expiryOf(test, B, bHolder);
      long dueIn = Duration.ofMillis(1_050).toNanos() - (System.nanoTime() - acquired);
      Thread.sleep(Math.max(0, dueIn / 1_000_000)); // a third of the lease, by the renewer's clock

      renewer.renewDue(); // both due (a third of 3 s has passed): a is lost, b's batch fails
      repairStateOf(test, B);
      renewer.renewDue(); // the next tick

      assertThat(expiryOf(test, B, bHolder)).as("b renewed at the next tick").isGreaterThan(bUntil);
      assertThat(renewer.size()).as("a reported lost, b still kept alive").isEqualTo(1);
      a.close();
      b.close();
    }
  }

  private static Lease lease(PermitSpec spec, long requestId) {
    return new Lease(Lease.Kind.PERMIT, spec.name(), "", requestId, RENEWED_LEASE);
  }

  /** Renewal of one server batched per hash tag, exactly as on a Cluster. */
  private static LeaseRenewal clusterStyleRenewal(
      RedisClient client, TestRedis test, String instance) {
    RedisCalls calls =
        new RedisCalls(
            client,
            new RedisOutageGate("test", Duration.ofSeconds(1), () -> {}),
            instance,
            "unused");
    return new LeaseRenewal(calls, test.keys(), true);
  }

  private static void breakStateOf(TestRedis test, PermitSpec spec) {
    test.redis().set(test.keys().bulkhead(spec.name()).state(), "not a hash");
  }

  private static void repairStateOf(TestRedis test, PermitSpec spec) {
    test.redis().del(test.keys().bulkhead(spec.name()).state());
  }

  private static long expiryOf(TestRedis test, PermitSpec spec, String member) {
    Double score = test.redis().zscore(test.keys().bulkhead(spec.name()).holders(), member);
    assertThat(score).as("%s holds %s", member, spec.name()).isNotNull();
    return score.longValue();
  }

  /** The Redis store with its renewal batched per hash tag, as on a Cluster, on one server. */
  static final class PerHashTagStore implements BulwarkStore {

    static final String ID = "redis-per-hash-tag";

    private final RedisStore store;
    private final RedisClient client;
    private final LeaseRenewal renewal;

    private PerHashTagStore(StoreContext context) {
      RedisSettings settings = RedisSettings.from(context::config);
      this.store = RedisStore.open(settings, context.grantListener());
      this.client = RedisClient.create(settings.url());
      RedisCalls calls =
          new RedisCalls(
              client,
              new RedisOutageGate("test", Duration.ofSeconds(1), () -> {}),
              store.instance(),
              "unused");
      this.renewal = new LeaseRenewal(calls, new RedisKeys(settings.keyPrefix()), true);
    }

    static BulwarkStoreProvider provider() {
      return new BulwarkStoreProvider() {
        @Override
        public String id() {
          return ID;
        }

        @Override
        public BulwarkStore open(StoreContext context) {
          return new PerHashTagStore(context);
        }
      };
    }

    @Override
    public PermitStore permits() {
      return store.permits();
    }

    @Override
    public RateStore rates() {
      return store.rates();
    }

    @Override
    public LockStore locks() {
      return store.locks();
    }

    @Override
    public boolean leasesExpire() {
      return true;
    }

    @Override
    public List<Lease> renew(List<Lease> leases) {
      return renewal.renew(leases);
    }

    @Override
    public Duration wakeUpCheckInterval() {
      return store.wakeUpCheckInterval();
    }

    @Override
    public void close() {
      client.close();
      store.close();
    }
  }
}
