package dev.bulwark.ftquarkus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.tck.TestServices;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The cluster cap of a mapped {@code @Bulkhead} holds across engines: the Quarkus application and a
 * second engine started in the test share one real Redis, under a key prefix of this test run.
 */
@QuarkusTest
@TestProfile(TwoEnginesOnRedisTest.OnRedis.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TwoEnginesOnRedisTest {

  /** The same in the profile and the test, which Quarkus may load in two class loaders. */
  private static final String PREFIX = "ftq:" + ProcessHandle.current().pid() + ":";

  private static final String CAPPED = Reports.class.getName() + "#capped";

  public static class OnRedis implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of(
          "bulwark.store",
          "redis",
          "bulwark.redis.url",
          TestServices.redis().url(),
          "bulwark.redis.key-prefix",
          PREFIX);
    }
  }

  @Inject Reports reports;

  @Test
  void permitsHeldByTheOtherEngineRejectThisApplicationsCall() {
    try (BulwarkEngine other = otherEngine()) {
      BulkheadHandle capped = other.programmatic().bulkhead(CAPPED);
      List<Permit> held = List.of(capped.acquire(), capped.acquire());
      try {
        // FT's own bulkhead in this JVM (5) is empty: only the cluster cap (2) rejects
        assertThatThrownBy(() -> reports.capped(Gate.opened()))
            .isExactlyInstanceOf(BulkheadFullException.class);
      } finally {
        held.forEach(Permit::close);
      }
      assertThat(reports.capped(Gate.opened())).isEqualTo("capped");
    }
  }

  @Test
  void callsRunningInThisApplicationTakeTheOtherEnginesPermits() throws Exception {
    try (BulwarkEngine other = otherEngine()) {
      BulkheadHandle capped = other.programmatic().bulkhead(CAPPED);
      try (Callers held = Callers.holding(2, reports::capped)) {
        assertThat(capped.tryAcquire()).isEmpty();
        held.release();
      }
      Optional<Permit> free = capped.tryAcquire();
      assertThat(free).isPresent();
      free.get().close();
    }
  }

  @AfterAll
  static void deleteKeys() {
    try (RedisClient redis = RedisClient.create(URI.create(TestServices.redis().url()))) {
      ScanParams match = new ScanParams().match(PREFIX + "*").count(1000);
      String cursor = ScanParams.SCAN_POINTER_START;
      do {
        ScanResult<String> page = redis.scan(cursor, match);
        List<String> keys = page.getResult();
        if (!keys.isEmpty()) {
          redis.del(keys.toArray(String[]::new));
        }
        cursor = page.getCursor();
      } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
    }
  }

  /** Another JVM's engine, as far as the store can tell: its own connections, the same keys. */
  private static BulwarkEngine otherEngine() {
    Map<String, String> config =
        Map.of(
            "bulwark.store",
            "redis",
            "bulwark.redis.url",
            TestServices.redis().url(),
            "bulwark.redis.key-prefix",
            PREFIX,
            "bulwark.bulkhead." + CAPPED + ".value",
            "2");
    return BulwarkEngine.start(key -> Optional.ofNullable(config.get(key)));
  }
}
