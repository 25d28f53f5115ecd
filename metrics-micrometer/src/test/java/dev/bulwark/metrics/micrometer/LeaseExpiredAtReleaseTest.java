package dev.bulwark.metrics.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.metrics.MetricsCollector;
import dev.bulwark.tck.TestServices;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * A call whose permit the store had already dropped when it ended is logged once, as a warning, and
 * counted, on a real Redis whose holder entry is removed under the running call.
 */
class LeaseExpiredAtReleaseTest {

  private final Logger engineLog = Logger.getLogger("dev.bulwark.core.lease");
  private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord log) {
          if (log.getLevel() == Level.WARNING && log.getMessage().contains("run out of lease")) {
            warnings.add(log);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @AfterEach
  void stopCapturing() {
    engineLog.removeHandler(capture);
  }

  @Test
  void aReleaseAfterTheLeaseRanOutWarnsOnceAndIsCounted() {
    TestServices.Endpoint redis = TestServices.redis();
    String prefix = "bulwark-meters-" + UUID.randomUUID() + ":";
    MeterRegistry registry = new SimpleMeterRegistry();
    MetricsCollector meters = new MetricsCollector(new MicrometerRecorder(registry));
    engineLog.addHandler(capture);
    try (BulwarkEngine engine =
            BulwarkEngine.builder(
                    ConfigLookup.of(
                        Map.of(
                            "bulwark.store",
                            "redis",
                            "bulwark.redis.url",
                            redis.url(),
                            "bulwark.redis.key-prefix",
                            prefix,
                            "bulwark.bulkhead.expiring.value",
                            "1")))
                .listeners(List.of(meters))
                .start();
        RedisClient client = RedisClient.create(URI.create(redis.url()))) {
      meters.bind(engine);
      Permit permit = engine.registry().bulkhead("expiring").acquire();
      // what a lease that ran out leaves behind: the store no longer counts the holder
      assertThat(client.del(prefix + "{b:expiring}:holders")).isEqualTo(1);
      permit.close();
      permit.close(); // closing again releases nothing and reports nothing
      assertThat(engine.flush(Duration.ofSeconds(10))).as("the posted release answered").isTrue();

      assertThat(warnings).as("one warning per occurrence").hasSize(1);
      assertThat(warnings.get(0).getMessage())
          .contains("Bulkhead 'expiring'", "the call ran unguarded");
      assertThat(
              registry
                  .get("bulwark.leases.expired")
                  .tags("name", "expiring", "kind", "bulkhead")
                  .counter()
                  .count())
          .isEqualTo(1);
      assertThat(
              engine.registry().limits().stream()
                  .filter(l -> l.definition().name().equals("expiring"))
                  .findFirst()
                  .orElseThrow()
                  .stats()
                  .expiredAtRelease())
          .isEqualTo(1);
    }
  }
}
