package dev.bulwark.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.bulwark.StoreUnavailableException;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulkheadLimiter;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.tck.OutageRelay;
import dev.bulwark.tck.TestServices;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The readiness check against a real Redis that goes away behind a relay and comes back. */
class StoreReadinessTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);

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
  void failClosedIsDownFromTheFirstFailedCallUntilTheStoreAnswersAgainWithNoCallNeeded()
      throws Exception {
    BulkheadLimiter bulkhead = start("fail-closed");
    assertThat(check().getStatus()).isEqualTo(Status.UP);
    assertThat(details())
        .containsEntry("store", "redis")
        .containsEntry("policy", "fail-closed")
        .containsEntry("reachable", true)
        .containsEntry("wake-up-subscription", "up")
        .doesNotContainKey("unreachable-since");

    relay.close();
    Instant before = Instant.now();
    assertThatThrownBy(bulkhead::acquire).isInstanceOf(StoreUnavailableException.class);
    Instant after = Instant.now();

    HealthCheckResponse down = check();
    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
    assertThat(details()).containsEntry("reachable", false).containsEntry("policy", "fail-closed");
    assertThat(Instant.parse((String) details().get("unreachable-since"))).isBetween(before, after);

    relay.open();
    // no guarded call from here on: an instance out of service gets none
    await("readiness is UP again", () -> check().getStatus() == Status.UP);
    assertThat(details())
        .containsEntry("reachable", true)
        .containsEntry("wake-up-subscription", "up")
        .doesNotContainKey("unreachable-since");
    assertThat(answers(bulkhead)).as("calls reach Redis again").isTrue();
  }

  @Test
  void aLostWakeUpSubscriptionMakesItDownWithoutAnyCall() throws Exception {
    start("fail-closed");
    assertThat(check().getStatus()).isEqualTo(Status.UP);

    relay.close();
    await("the subscription is seen down", () -> check().getStatus() == Status.DOWN);
    assertThat(details()).containsEntry("wake-up-subscription", "down");
  }

  @Test
  void failOpenStaysUpAndShowsTheOutageInItsDetails() throws Exception {
    BulkheadLimiter bulkhead = start("fail-open");
    relay.close();
    bulkhead.acquire().close(); // let through

    assertThat(check().getStatus()).isEqualTo(Status.UP);
    assertThat(details())
        .containsEntry("policy", "fail-open")
        .containsEntry("reachable", false)
        .containsKey("unreachable-since");
  }

  private BulkheadLimiter start(String policy) {
    engine =
        BulwarkEngine.start(
            ConfigLookup.of(
                Map.of(
                    "bulwark.store", "redis",
                    "bulwark.failure-policy", policy,
                    "bulwark.redis.url", "redis://127.0.0.1:" + relay.port(),
                    "bulwark.redis.key-prefix", "bulwark-health-" + UUID.randomUUID() + ":",
                    "bulwark.redis.connect-timeout", "500ms",
                    "bulwark.redis.read-timeout", "500ms",
                    "bulwark.redis.reconnect-interval", "100ms",
                    "bulwark.bulkhead.checked.value", "1")));
    return engine.registry().bulkhead("checked");
  }

  private HealthCheckResponse check() {
    HealthCheckResponse response = StoreReadiness.check(engine);
    assertThat(response.getName()).isEqualTo("bulwark");
    return response;
  }

  private Map<String, Object> details() {
    return check().getData().orElseThrow();
  }

  private static boolean answers(BulkheadLimiter bulkhead) {
    try {
      bulkhead.acquire().close();
      return true;
    } catch (StoreUnavailableException e) {
      return false;
    }
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("Gave up after " + PATIENCE + " waiting until " + what);
      }
      Thread.sleep(20);
    }
  }
}
