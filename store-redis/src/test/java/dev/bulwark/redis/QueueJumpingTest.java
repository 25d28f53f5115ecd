package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.PermitSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * First come, first served survives the holders' key expiring before a queued request was woken
 * (two leases shorter than the wake-up check interval): a newcomer finds no holder, yet the live
 * waiter is served first. The leases run out on the test's clock; the key's expiry, which Redis
 * runs on its own clock, is played by deleting it.
 */
@ExtendWith(RedisExtension.class)
class QueueJumpingTest {

  private ControlledClock clock;
  private RedisClient redis;
  private RedisKeys keys;
  private ClockedJvm a;
  private ClockedJvm b;
  private ClockedJvm c;

  @BeforeEach
  void open(TestRedis test) {
    clock = new ControlledClock(test);
    redis = test.redis();
    keys = test.keys();
    a = new ClockedJvm(test, clock, "00000000000000a1");
    b = new ClockedJvm(test, clock, "00000000000000b2");
    c = new ClockedJvm(test, clock, "00000000000000c3");
  }

  @Test
  void aNewcomerDoesNotTakeAPermitAWaiterWasNotWokenForYet() {
    PermitSpec shortLease = new PermitSpec("pool", 1, 100);
    PermitSpec waiting = new PermitSpec("pool", 1, 10_000);
    RedisKeys.BulkheadKeys bulkhead = keys.bulkhead("pool");
    assertThat(a.permits().acquire(shortLease, 1, false)).isEqualTo(Grant.GRANTED);
    assertThat(b.permits().acquire(waiting, 2, true)).isEqualTo(Grant.QUEUED);

    clock.advanceMillis(300); // a's JVM died; its lease, and twice it, passed
    redis.del(bulkhead.holders());

    assertThat(c.permits().acquire(waiting, 3, false)).isEqualTo(Grant.REJECTED);
    assertThat(redis.zrange(bulkhead.holders(), 0, -1)).containsExactly(b.member(2));
    assertThat(redis.exists(bulkhead.queue())).isFalse();
    assertThat(b.permits().poll(waiting, 2)).isEqualTo(Grant.GRANTED);
  }

  @Test
  void aNewWriterDoesNotTakeALockAWaiterWasNotWokenForYet() {
    LockSpec shortLease = new LockSpec("accounts", 100);
    LockSpec waiting = new LockSpec("accounts", 10_000);
    RedisKeys.LockKeys lock = keys.lock("accounts", "42");
    assertThat(a.locks().acquire(shortLease, "42", LockMode.WRITE, 1, false).isGranted()).isTrue();
    assertThat(b.locks().acquire(waiting, "42", LockMode.WRITE, 2, true)).isEqualTo(Grant.QUEUED);

    // a's JVM died and its lease passed; the state hash, which holds the waiter's entry, lives as
    // long as the waiter's lease, so only the writer's mark is left behind, expired
    clock.advanceMillis(300);

    assertThat(c.locks().acquire(waiting, "42", LockMode.WRITE, 3, false))
        .isEqualTo(Grant.REJECTED);
    assertThat(redis.hget(lock.state(), "writer")).isEqualTo(b.member(2));
    assertThat(redis.exists(lock.queue())).isFalse();
    assertThat(b.locks().poll(waiting, "42", 2).isGranted()).isTrue();
  }
}
