package dev.bulwark.ftquarkus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.core.engine.BulwarkEngine;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cluster cap of a mapped {@code @Bulkhead}, FT's own value (5), holds across engines: the
 * Quarkus application and a second engine started in the test share one real Redis.
 */
@QuarkusTest
@TestProfile(OnRedis.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TwoEnginesOnRedisTest {

  private static final String CAPPED = Limits.name(Reports.class, "capped", Gate.class);

  @Inject Reports reports;

  @Test
  void permitsHeldByTheOtherEngineRejectThisApplicationsCall() {
    try (BulwarkEngine other = OnRedis.otherEngine(CAPPED, 5)) {
      BulkheadHandle capped = other.programmatic().bulkhead(CAPPED);
      List<Permit> held = new ArrayList<>();
      try {
        for (int i = 0; i < 5; i++) {
          held.add(capped.acquire());
        }
        // FT's own bulkhead in this JVM (5) runs no call: only the cluster cap rejects
        assertThatThrownBy(() -> reports.capped(Gate.opened()))
            .isExactlyInstanceOf(BulkheadFullException.class)
            .hasMessageContaining(CAPPED);
      } finally {
        held.forEach(Permit::close);
      }
      // a release is posted to Redis, not made by the closing call: let the other engine's arrive
      assertThat(other.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(reports.capped(Gate.opened())).isEqualTo("capped");
    }
  }

  @Test
  void callsRunningInThisApplicationTakeTheOtherEnginesPermits() throws Exception {
    try (BulwarkEngine other = OnRedis.otherEngine(CAPPED, 5)) {
      BulkheadHandle capped = other.programmatic().bulkhead(CAPPED);
      try (Callers held = Callers.holding(5, reports::capped)) {
        assertThat(capped.tryAcquire()).isEmpty();
        held.release();
      }
      // the application's calls ended: their releases are posted to Redis and arrive shortly
      Optional<Permit> free = capped.tryAcquire();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (free.isEmpty() && System.nanoTime() - deadline < 0) {
        Thread.sleep(10);
        free = capped.tryAcquire();
      }
      assertThat(free).as("a permit once the application's releases arrived").isPresent();
      free.get().close();
    }
  }

  @AfterAll
  static void deleteKeys() {
    OnRedis.deleteKeys();
  }
}
