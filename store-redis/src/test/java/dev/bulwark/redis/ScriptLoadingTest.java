package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.RateLimitType;
import dev.bulwark.redis.RecordingStore.Wake;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateSpec;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * Scripts are called by SHA; a server that lost its script cache (restart, failover, SCRIPT FLUSH)
 * answers NOSCRIPT, and the store sends the text once and carries on.
 */
@ExtendWith(RedisExtension.class)
class ScriptLoadingTest {

  private static final PermitSpec PERMITS = new PermitSpec("pool", 1, 10_000);
  private static final LockSpec LOCK = new LockSpec("accounts", 10_000);

  private RedisClient redis;
  private RecordingStore a;
  private RecordingStore b;

  @BeforeEach
  void open(TestRedis test) {
    redis = test.redis();
    a = test.open();
    b = test.open();
  }

  @Test
  void everyOperationWorksRightAfterTheScriptCacheWasFlushed() {
    flush();
    assertThat(a.store().permits().acquire(PERMITS, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(loaded(Scripts.PERMIT_ACQUIRE.sha())).isTrue();
    flush();
    assertThat(b.store().permits().acquire(PERMITS, 2, true)).isEqualTo(Grant.QUEUED);
    flush();
    assertThat(b.store().permits().poll(PERMITS, 2)).isEqualTo(Grant.QUEUED);
    flush();
    assertThat(a.store().renew(List.of(new Lease(Lease.Kind.PERMIT, "pool", "", 1, 10_000))))
        .isEmpty();
    flush();
    a.store().permits().release(PERMITS, 1);
    assertThat(b.wakesSoFar(redis)).containsExactly(new Wake(2, 0));
    flush();
    assertThat(b.store().permits().cancel(PERMITS, 2)).isEqualTo(Grant.GRANTED);
    flush();
    b.store().permits().release(PERMITS, 2);
    assertThat(loaded(Scripts.PERMIT_RELEASE.sha())).isTrue();

    flush();
    assertThat(a.store().locks().acquire(LOCK, "k", LockMode.WRITE, 3, true).isGranted()).isTrue();
    flush();
    assertThat(b.store().locks().acquire(LOCK, "k", LockMode.READ, 4, true))
        .isEqualTo(Grant.QUEUED);
    flush();
    assertThat(b.store().locks().poll(LOCK, "k", 4)).isEqualTo(Grant.QUEUED);
    flush();
    assertThat(b.store().locks().cancel(LOCK, "k", 4)).isEqualTo(Grant.REJECTED);
    flush();
    a.store().locks().release(LOCK, "k", 3);
    assertThat(
            redis.exists(
                a.store().settings().keyPrefix()
                    + "{l:accounts:"
                    + RedisKeys.hash("k")
                    + "}:holders"))
        .isFalse();

    for (RateLimitType type : RateLimitType.values()) {
      flush();
      assertThat(a.store().rates().reserve(new RateSpec("r", type, 1, 1_000_000_000L), 0).granted())
          .as(type.name())
          .isTrue();
    }
    flush();
    assertThat(a.store().permits().define(PERMITS)).isEmpty();
    assertThat(loaded(Scripts.DEFINE.sha())).isTrue();
  }

  @Test
  void aFlushBetweenTwoCallsOfOneStoreIsInvisibleToIt() {
    for (int i = 0; i < 3; i++) {
      // No assertion that the SHA is gone: another client of a shared server may load it again.
      flush();
      assertThat(a.store().permits().acquire(new PermitSpec("p" + i, 1, 10_000), i, false))
          .isEqualTo(Grant.GRANTED);
      assertThat(loaded(Scripts.PERMIT_ACQUIRE.sha())).isTrue();
    }
  }

  private void flush() {
    assertThat(redis.scriptFlush()).isEqualTo("OK");
  }

  private boolean loaded(String sha) {
    return redis.scriptExists(List.of(sha)).get(0);
  }
}
