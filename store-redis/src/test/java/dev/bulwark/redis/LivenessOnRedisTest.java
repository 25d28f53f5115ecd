package dev.bulwark.redis;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.tck.LivenessRun;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link LivenessRun} on the real Redis, its asynchronous calls fired from Vert.x event loops:
 * every call ends within its waiting time plus {@link #BOUND}, the engine's flush returns, and its
 * close returns promptly. Run with releases awaited (the default) and posted, where a posted
 * release on an idle batch queue once left every later call of its limit waiting for good.
 */
@ExtendWith(RedisExtension.class)
@Timeout(180)
class LivenessOnRedisTest {

  /**
   * What a call may take beyond its waiting time: its round trips, its release, and a busy
   * machine's pauses. A stalled batch queue is stalled for good, far beyond it.
   */
  private static final Duration BOUND = Duration.ofSeconds(5);

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"awaited", "posted"})
  void everyCallEndsInTimeAndFlushAndCloseReturnUnderEveryKindOfCaller(
      String release, TestRedis test) throws Exception {
    Map<String, String> config = LivenessRun.limits();
    config.put("bulwark.store", "redis");
    config.put("bulwark.redis.url", test.url());
    config.put("bulwark.redis.key-prefix", test.prefix());
    config.put("bulwark.release", release);
    BulwarkEngine engine = BulwarkEngine.start(ConfigLookup.of(config));
    LivenessRun.check(
        engine.programmatic(),
        engine::flush,
        engine::close,
        this::every,
        1,
        Duration.ofSeconds(8),
        BOUND);
  }

  private AutoCloseable every(long millis, Runnable tick) {
    long timer = vertx.setPeriodic(millis, id -> tick.run());
    return () -> vertx.cancelTimer(timer);
  }
}
