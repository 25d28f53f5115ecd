package dev.bulwark.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.it.support.RedisClusterExtension;
import dev.bulwark.it.support.RedisServerProcess;
import dev.bulwark.redis.RedisStore;
import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Lease renewal on a Redis Cluster: the leases of many lock keys (each key in a slot of its own)
 * are renewed by one script per slot, sent as one pipeline per primary. Counted, not timed: the
 * read events the primaries processed ({@code total_reads_processed}: one per request that arrives
 * alone, one per buffer of a pipeline) stay far below the number of slots, where sending one script
 * after another costs one each.
 */
class RenewalRoundTripsOnClusterTest {

  private static final String PREFIX = "bulwark-it:renewal-round-trips:";
  private static final int KEYS = 300;

  @RegisterExtension static final RedisClusterExtension CLUSTER = new RedisClusterExtension();

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void manyKeysAreRenewedInAFewRoundTrips() {
    Map<String, String> config =
        Map.of(
            "bulwark.redis.cluster-nodes",
            CLUSTER.cluster().nodeList(),
            "bulwark.redis.key-prefix",
            PREFIX,
            // no topology lookups or subscription PINGs while the reads are counted
            "bulwark.redis.reconnect-interval",
            "1m");
    RedisSettings settings = RedisSettings.from(key -> Optional.ofNullable(config.get(key)));
    LockSpec accounts = new LockSpec("accounts", 30_000);
    try (RedisStore store = RedisStore.open(settings, (request, token) -> {})) {
      List<Lease> leases = new ArrayList<>();
      for (int i = 0; i < KEYS; i++) {
        String key = "account-" + i;
        assertThat(store.locks().acquire(accounts, key, LockMode.WRITE, i + 1, false).isGranted())
            .isTrue();
        leases.add(new Lease(Lease.Kind.LOCK, accounts.name(), key, i + 1, 30_000));
      }
      assertThat(store.renew(leases)).as("a first renewal (connections warm)").isEmpty();

      long before = readsProcessed();
      assertThat(store.renew(leases)).as("leases lost").isEmpty();
      long reads =
          readsProcessed() - before - CLUSTER.cluster().primaries().size(); // less our own INFO

      System.out.printf(
          "[renewal-round-trips] %d lock keys renewed: %d read events on %d primaries%n",
          KEYS, reads, CLUSTER.cluster().primaries().size());
      assertThat(reads).as("read events for %d keys' renewal", KEYS).isLessThan(KEYS / 10);
    }
  }

  private static long readsProcessed() {
    long total = 0;
    for (RedisServerProcess primary : CLUSTER.cluster().primaries()) {
      try (Jedis node = primary.connect()) {
        for (String line : node.info("stats").split("\r\n")) {
          if (line.startsWith("total_reads_processed:")) {
            total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
          }
        }
      }
    }
    return total;
  }
}
