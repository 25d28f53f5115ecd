package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * Fencing tokens grow strictly per key across a failover that lost the counter's last write and
 * across the expiry of the key's state, and no reader gets 0.
 */
@ExtendWith(RedisExtension.class)
class FencingTokensTest {

  private static final String NAME = "accounts";
  private static final String KEY = "42";
  private static final LockSpec SPEC = new LockSpec(NAME, 10_000);

  @Test
  void aWriterAfterAFailoverThatLostTheLastWriteGetsATokenAboveTheRunningWriters(TestRedis test) {
    ControlledClock clock = new ControlledClock(test);
    ClockedJvm a = new ClockedJvm(test, clock, "00000000000000a1");
    ClockedJvm b = new ClockedJvm(test, clock, "00000000000000b2");
    RedisClient redis = test.redis();
    String state = test.keys().lock(NAME, KEY).state();
    long first = a.locks().acquire(SPEC, KEY, LockMode.WRITE, 1, false).fencingToken();
    a.locks().release(SPEC, KEY, 1);
    Map<String, String> replicated = redis.hgetAll(state); // what the replica has

    clock.advanceMillis(1);
    long running = a.locks().acquire(SPEC, KEY, LockMode.WRITE, 2, false).fencingToken();
    assertThat(running).isGreaterThan(first);
    // the primary fails before replicating that grant; the replica takes over without it
    redis.del(state);
    redis.hset(state, replicated);

    clock.advanceMillis(1);
    long next = b.locks().acquire(SPEC, KEY, LockMode.WRITE, 3, false).fencingToken();

    assertThat(next).isGreaterThan(running);
  }

  @Test
  void aReaderOfAKeyWithNoRecordedWriteGetsATokenBelowTheNextWritesNeverZero(TestRedis test) {
    ControlledClock clock = new ControlledClock(test);
    ClockedJvm a = new ClockedJvm(test, clock, "00000000000000a1");
    RedisClient redis = test.redis();
    String state = test.keys().lock(NAME, KEY).state();
    long written = a.locks().acquire(SPEC, KEY, LockMode.WRITE, 1, false).fencingToken();
    a.locks().release(SPEC, KEY, 1);
    redis.del(state); // the state expired with the idle key, or a failover lost it

    clock.advanceMillis(1);
    Grant reader = a.locks().acquire(SPEC, KEY, LockMode.READ, 2, false);
    Grant otherReader = a.locks().acquire(SPEC, KEY, LockMode.READ, 3, false);
    a.locks().release(SPEC, KEY, 2);
    a.locks().release(SPEC, KEY, 3);
    clock.advanceMillis(1);
    long nextWrite = a.locks().acquire(SPEC, KEY, LockMode.WRITE, 4, false).fencingToken();

    assertThat(reader.isGranted()).isTrue();
    assertThat(reader.fencingToken()).isGreaterThan(written);
    assertThat(otherReader).isEqualTo(reader);
    assertThat(nextWrite).isGreaterThan(reader.fencingToken());
  }

  /** In real time: the state's expiry is Redis' own. */
  @Test
  void aReaderHoldingPastTwoLeasesKeepsTheLastWritesTokenForTheReadersAfterIt(TestRedis test)
      throws InterruptedException {
    LockSpec shortLease = new LockSpec(NAME, 600);
    RecordingStore a = test.open();
    RecordingStore b = test.open();
    long written =
        a.store().locks().acquire(shortLease, KEY, LockMode.WRITE, 1, false).fencingToken();
    long writeGranted = System.nanoTime();
    a.store().locks().release(shortLease, KEY, 1);
    assertThat(a.store().locks().acquire(shortLease, KEY, LockMode.READ, 2, false))
        .isEqualTo(Grant.granted(written));

    // the reader's JVM renews its lease as the engine does, well within each lease, for more than
    // two leases after the write (when the state hash expired before)
    Lease reading = new Lease(Lease.Kind.LOCK, NAME, KEY, 2, shortLease.leaseMillis());
    int renewals = 0;
    while (System.nanoTime() - writeGranted < TimeUnit.MILLISECONDS.toNanos(1_500)) {
      TimeUnit.MILLISECONDS.sleep(100);
      assertThat(a.store().renew(List.of(reading)))
          .as("renewal %d lost the lease", renewals)
          .isEmpty();
      renewals++;
    }

    assertThat(b.store().locks().acquire(shortLease, KEY, LockMode.READ, 3, false))
        .isEqualTo(Grant.granted(written));
  }
}
