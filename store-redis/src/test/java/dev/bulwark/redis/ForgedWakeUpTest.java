package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockContext;
import dev.bulwark.LockHandle;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.redis.RecordingStore.Wake;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.PermitSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * Only the store can wake a waiter: a message published on a JVM's wake-up channel by anyone else
 * neither starts a waiter nor hands it a fencing token; the store's own hand-over still does.
 */
@ExtendWith(RedisExtension.class)
class ForgedWakeUpTest {

  /** A forged notice is logged as a warning; expected here. */
  private static final Logger NOTICES_LOG = Logger.getLogger("dev.bulwark.redis.client");

  private static Level noticesLogLevel;

  @BeforeAll
  static void quietLog() {
    noticesLogLevel = NOTICES_LOG.getLevel();
    NOTICES_LOG.setLevel(Level.SEVERE);
  }

  @AfterAll
  static void restoreLog() {
    NOTICES_LOG.setLevel(noticesLogLevel);
  }

  @Test
  void aForgedNoticeNeitherWakesAQueuedWriterNorHandsItAToken(TestRedis test) {
    LockSpec spec = new LockSpec("accounts", 10_000);
    RedisClient redis = test.redis();
    RecordingStore a = test.open();
    RecordingStore b = test.open();
    long first = a.store().locks().acquire(spec, "42", LockMode.WRITE, 1, true).fencingToken();
    assertThat(b.store().locks().acquire(spec, "42", LockMode.WRITE, 2, true))
        .isEqualTo(Grant.QUEUED);

    for (String forged :
        List.of(
            "2:" + Long.MAX_VALUE, // the format before notices were signed
            "2:" + Long.MAX_VALUE + ":" + "0".repeat(40),
            "2:" + Long.MAX_VALUE + ":" + a.store().wakeUpNotice(2, Long.MAX_VALUE).split(":")[2],
            "2:1:",
            "look")) {
      redis.publish(b.wakeUpChannel(), forged);
    }

    assertThat(b.wakesSoFar(redis)).isEmpty();
    assertThat(b.store().rejectedWakeUps()).isEqualTo(5);
    assertThat(b.store().locks().poll(spec, "42", 2)).isEqualTo(Grant.QUEUED);

    a.store().locks().release(spec, "42", 1);
    List<Wake> handOver = b.wakesSoFar(redis);
    assertThat(handOver).hasSize(1);
    assertThat(handOver.get(0).requestId()).isEqualTo(2);
    assertThat(handOver.get(0).token()).isGreaterThan(first);
    assertThat(b.store().locks().poll(spec, "42", 2))
        .isEqualTo(Grant.granted(handOver.get(0).token()));
  }

  @Test
  void aForgedNoticeDoesNotWakeAQueuedPermitRequest(TestRedis test) {
    PermitSpec one = new PermitSpec("pool", 1, 10_000);
    RedisClient redis = test.redis();
    RecordingStore a = test.open();
    RecordingStore b = test.open();
    assertThat(a.store().permits().acquire(one, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(b.store().permits().acquire(one, 2, true)).isEqualTo(Grant.QUEUED);

    redis.publish(b.wakeUpChannel(), "2:0");

    assertThat(b.wakesSoFar(redis)).isEmpty();
    a.store().permits().release(one, 1);
    assertThat(b.wakesSoFar(redis)).containsExactly(new Wake(2, 0));
  }

  /** Through the engine: the waiting thread starts on the store's hand-over, with its token. */
  @Test
  @Timeout(30)
  void aWaitingCallStartsOnlyWhenTheStoreHandsItTheLockWithTheStoresToken(TestRedis test)
      throws Exception {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.store", "redis");
    config.put("bulwark.redis.url", test.url());
    config.put("bulwark.redis.key-prefix", test.prefix());
    config.put("bulwark.lock.accounts.waiting-time", "10s");
    RedisClient redis = test.redis();
    RedisKeys.LockKeys keys = test.keys().lock("accounts", "42");
    try (BulwarkEngine engine = BulwarkEngine.start(ConfigLookup.of(config))) {
      LockHandle lock = engine.programmatic().lock("accounts");
      LockPermit held = lock.lock("42", LockMode.WRITE);
      CompletableFuture<long[]> waiter =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return lock.call(
                      "42",
                      LockMode.WRITE,
                      () -> new long[] {System.nanoTime(), LockContext.fencingToken()});
                } catch (Exception e) {
                  throw new CompletionException(e);
                }
              });
      long asked = System.nanoTime();
      while (redis.zcard(keys.queue()) == 0) {
        assertThat(System.nanoTime() - asked).isLessThan(TimeUnit.SECONDS.toNanos(5));
        Thread.sleep(5);
      }
      String member = redis.zrange(keys.queue(), 0, 0).get(0);
      String instance = member.substring(0, member.indexOf(':'));
      String request = member.substring(member.indexOf(':') + 1);

      // on the channel before the store's own notice, so heard first if it were heard at all
      redis.publish(test.prefix() + "wake:" + instance, request + ":" + Long.MAX_VALUE);
      long released = System.nanoTime();
      held.close();
      long[] entered = waiter.get(10, TimeUnit.SECONDS);

      assertThat(entered[1])
          .isNotEqualTo(Long.MAX_VALUE)
          .isEqualTo(Long.parseLong(redis.hget(keys.state(), "fence")))
          .isGreaterThan(held.fencingToken());
      assertThat(entered[0]).isGreaterThanOrEqualTo(released);
    }
  }
}
