package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a batch costs the server, as MONITOR shows it: a batch of operations on one bulkhead, one
 * lock name (a single server) or one rate limit is one script call, whatever its size.
 */
@ExtendWith(RedisExtension.class)
class BatchCommandCountTest {

  private RedisMonitor monitor;
  private RecordingStore store;

  @BeforeEach
  void startMonitor(TestRedis test) throws InterruptedException {
    this.store = test.open();
    // a server that lacks a script is sent its text once more (EVAL): not what is counted here
    for (var script : List.of(Scripts.PERMIT_BATCH, Scripts.LOCK_BATCH, Scripts.RATE_BATCH)) {
      test.redis().scriptLoad(script.source());
    }
    monitor = RedisMonitor.start(test);
  }

  @AfterEach
  void stopMonitor() throws InterruptedException {
    monitor.close();
  }

  @Test
  void aBulkheadBatchIsOneScriptCall() {
    PermitSpec pool = new PermitSpec("pool", 2, 60_000);
    List<Operation> batch = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      batch.add(Operation.acquire(i, true));
    }
    batch.add(Operation.release("", 1));
    batch.add(Operation.poll("", 3));
    batch.add(Operation.cancel("", 4));

    store.store().permits().apply(pool, batch);

    assertThat(monitor.commandsSent())
        .singleElement()
        .asString()
        .startsWithIgnoringCase("\"evalsha\"");
  }

  @Test
  void aLockBatchOverManyKeysIsOneScriptCallOnASingleServer() {
    LockSpec accounts = new LockSpec("accounts", 60_000);
    List<Operation> batch = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      batch.add(
          Operation.acquire("key-" + i % 3, i % 2 == 0 ? LockMode.READ : LockMode.WRITE, i, true));
    }
    batch.add(Operation.release("key-1", 1));

    store.store().locks().apply(accounts, batch);

    assertThat(monitor.commandsSent())
        .singleElement()
        .asString()
        .startsWithIgnoringCase("\"evalsha\"");
  }

  @Test
  void aRateBatchIsOneScriptCall() {
    RateSpec limit =
        new RateSpec("api", dev.bulwark.RateLimitType.SMOOTH, 5, TimeUnit.SECONDS.toNanos(1));
    long[] maxWaits = new long[8];
    assertThat(store.store().rates().reserveEach(limit, maxWaits))
        .as("a burst of 5, then rejections")
        .extracting(RateDecision::granted)
        .containsExactly(true, true, true, true, true, false, false, false);

    assertThat(monitor.commandsSent())
        .singleElement()
        .asString()
        .startsWithIgnoringCase("\"evalsha\"");
  }
}
