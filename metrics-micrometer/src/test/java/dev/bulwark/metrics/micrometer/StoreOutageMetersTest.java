package dev.bulwark.metrics.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.StoreUnavailableException;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulkheadLimiter;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.metrics.MetricsCollector;
import dev.bulwark.tck.OutageRelay;
import dev.bulwark.tck.TestServices;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A real Redis outage (Redis behind a relay the test closes) as the store's meters show it. */
class StoreOutageMetersTest {

  private final MeterRegistry registry = new SimpleMeterRegistry();
  private OutageRelay relay;
  private BulwarkEngine engine;

  @BeforeEach
  void relayToRedis() throws Exception {
    TestServices.Endpoint redis = TestServices.redis();
    relay = new OutageRelay(redis.host(), redis.port());
    relay.open();
  }

  @AfterEach
  void stop() {
    if (engine != null) {
      engine.close();
    }
    relay.close();
  }

  @Test
  void failClosedCountsTheRejectionTheFailureAndTheOutageUntilRedisAnswers() throws Exception {
    BulkheadLimiter bulkhead = start("fail-closed");
    bulkhead.acquire().close();
    // the release is posted, not waited for: it reaches Redis before the outage starts
    assertThat(engine.flush(Duration.ofSeconds(10))).isTrue();
    assertThat(available()).isEqualTo(1);

    relay.close();
    assertThatThrownBy(bulkhead::acquire).isInstanceOf(StoreUnavailableException.class);
    assertThatThrownBy(bulkhead::acquire).isInstanceOf(StoreUnavailableException.class);

    assertThat(available()).isZero();
    assertThat(outages()).isEqualTo(1);
    assertThat(failures("fail-closed")).isEqualTo(2);
    assertThat(calls("rejected", "store-down")).isEqualTo(2);
    assertThat(calls("granted", "none")).isEqualTo(1);
    assertThat(registry.get("bulwark.cluster.available").tag("name", "outage").gauge().value())
        .as("no value while the store cannot be read")
        .isNaN();

    relay.open();
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!answers(bulkhead)) {
      assertThat(System.nanoTime()).as("Redis answers again within 20 s").isLessThan(deadline);
      Thread.sleep(20);
    }
    assertThat(engine.flush(Duration.ofSeconds(10))).isTrue();
    assertThat(available()).isEqualTo(1);
    assertThat(outages()).as("one outage, however many calls failed").isEqualTo(1);
  }

  @Test
  void failOpenCountsTheCallsItLetThroughAndNoGrant() {
    BulkheadLimiter bulkhead = start("fail-open");
    relay.close();
    bulkhead.acquire().close();
    bulkhead.acquire().close();

    assertThat(calls("passed-through", "none")).isEqualTo(2);
    assertThat(calls("granted", "none")).isZero();
    assertThat(failures("fail-open")).isEqualTo(2);
    assertThat(registry.get("bulwark.running").tag("name", "outage").gauge().value()).isZero();
    assertThat(available()).isZero();
  }

  private BulkheadLimiter start(String policy) {
    MetricsCollector meters = new MetricsCollector(new MicrometerRecorder(registry));
    engine =
        BulwarkEngine.builder(
                ConfigLookup.of(
                    Map.of(
                        "bulwark.store", "redis",
                        "bulwark.failure-policy", policy,
                        "bulwark.redis.url", "redis://127.0.0.1:" + relay.port(),
                        "bulwark.redis.key-prefix", "bulwark-outage-" + UUID.randomUUID() + ":",
                        "bulwark.redis.connect-timeout", "500ms",
                        "bulwark.redis.read-timeout", "500ms",
                        "bulwark.redis.reconnect-interval", "100ms",
                        "bulwark.bulkhead.outage.value", "1")))
            .listeners(List.of(meters))
            .start();
    BulkheadLimiter bulkhead = engine.registry().bulkhead("outage");
    meters.bind(engine);
    return bulkhead;
  }

  private double available() {
    return registry.get("bulwark.store.available").tag("store", "redis").gauge().value();
  }

  private double outages() {
    return registry.get("bulwark.store.outages").tag("store", "redis").counter().count();
  }

  private double failures(String policy) {
    return registry
        .get("bulwark.store.failures")
        .tags("name", "outage", "policy", policy)
        .functionCounter()
        .count();
  }

  private double calls(String result, String reason) {
    return registry
        .get("bulwark.calls")
        .tags("name", "outage", "result", result, "reason", reason)
        .counter()
        .count();
  }

  private static boolean answers(BulkheadLimiter bulkhead) {
    try {
      bulkhead.acquire().close();
      return true;
    } catch (StoreUnavailableException e) {
      return false;
    }
  }
}
