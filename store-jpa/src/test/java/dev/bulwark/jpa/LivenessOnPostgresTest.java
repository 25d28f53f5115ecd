package dev.bulwark.jpa;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.tck.LivenessRun;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LivenessRun} on the JPA store on PostgreSQL, its asynchronous calls fired from Vert.x
 * event loops: every call ends within its waiting time plus {@link #BOUND} (a transaction per batch
 * holds a sending thread for its round trips, which must not hold up another limit), the engine's
 * flush returns, and its close returns promptly. The loops fire every 4 ms, a rate a busy two-core
 * machine's PostgreSQL serves beside the synchronous callers.
 */
@Timeout(180)
class LivenessOnPostgresTest {

  /** What a call may take beyond its waiting time on a busy machine; a stall is for good. */
  private static final Duration BOUND = Duration.ofSeconds(5);

  private final JpaStoreFixture fixture =
      new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    fixture.close();
  }

  @Test
  void everyCallEndsInTimeAndFlushAndCloseReturnUnderEveryKindOfCaller() throws Exception {
    Map<String, String> config = LivenessRun.limits();
    config.put("bulwark.store", "jpa");
    fixture.config().forEach((key, value) -> config.put("bulwark.jpa." + key, value));
    BulwarkEngine engine = BulwarkEngine.start(ConfigLookup.of(config));
    LivenessRun.check(
        engine.programmatic(),
        engine::flush,
        engine::close,
        this::every,
        4,
        Duration.ofSeconds(10),
        BOUND);
  }

  private AutoCloseable every(long millis, Runnable tick) {
    long timer = vertx.setPeriodic(millis, id -> tick.run());
    return () -> vertx.cancelTimer(timer);
  }
}
