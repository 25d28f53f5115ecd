package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisMonitor;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * What a batch costs the server, as MONITOR shows it: the commands that reach Redis from a client
 * (not those a script runs, which MONITOR marks {@code lua}) and name this test's keys. A batch of
 * operations on one bulkhead, one lock name (a single server) or one rate limit is one script call,
 * whatever its size. The server is shared, so only lines with this test's prefix count, between two
 * markers the test sends itself.
 */
@ExtendWith(RedisExtension.class)
class BatchCommandCountTest {

  private static final Duration MARKER_TIMEOUT = Duration.ofSeconds(10);

  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private Jedis monitor;
  private Thread monitoring;
  private TestRedis test;
  private RecordingStore store;

  @BeforeEach
  void startMonitor(TestRedis test) throws InterruptedException {
    this.test = test;
    this.store = test.open();
    // a server that lacks a script is sent its text once more (EVAL): not what is counted here
    for (var script : List.of(Scripts.PERMIT_BATCH, Scripts.LOCK_BATCH, Scripts.RATE_BATCH)) {
      test.redis().scriptLoad(script.source());
    }
    URI uri = URI.create(test.url());
    HostAndPort server = JedisURIHelper.getHostAndPort(uri);
    monitor = new Jedis(server.getHost(), server.getPort());
    monitoring =
        new Thread(
            () -> {
              try {
                monitor.monitor(
                    new JedisMonitor() {
                      @Override
                      public void onCommand(String command) {
                        lines.add(command);
                      }
                    });
              } catch (RuntimeException closed) {
                // the test disconnected it
              }
            },
            "monitor");
    monitoring.setDaemon(true);
    monitoring.start();
    // MONITOR is on once it shows a command sent after it
    long deadline = System.nanoTime() + MARKER_TIMEOUT.toNanos();
    String start = test.prefix() + "monitor-on";
    while (commandsUntil(start, Duration.ofMillis(200)) == null) {
      assertThat(System.nanoTime()).as("MONITOR started").isLessThan(deadline);
    }
  }

  @AfterEach
  void stopMonitor() throws InterruptedException {
    monitor.disconnect();
    monitoring.join(TimeUnit.SECONDS.toMillis(10));
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

    assertThat(commandsSent()).singleElement().asString().startsWithIgnoringCase("\"evalsha\"");
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

    assertThat(commandsSent()).singleElement().asString().startsWithIgnoringCase("\"evalsha\"");
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

    assertThat(commandsSent()).singleElement().asString().startsWithIgnoringCase("\"evalsha\"");
  }

  /** The client commands naming this test's keys since the last marker, up to a new one. */
  private List<String> commandsSent() {
    try {
      List<String> sent = commandsUntil(test.prefix() + "end", MARKER_TIMEOUT);
      assertThat(sent).as("the end marker reached MONITOR").isNotNull();
      return sent;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * Sends {@code marker} (an ECHO) and returns the client commands with this test's prefix that
   * MONITOR showed before it; null when the marker did not show within {@code timeout}.
   */
  private List<String> commandsUntil(String marker, Duration timeout) throws InterruptedException {
    test.redis().echo(marker);
    List<String> seen = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null) {
        return null;
      }
      if (line.contains("\"" + marker + "\"")) {
        return seen;
      }
      // "<time> [<db> <client>] <command>": a script's own commands show client "lua"
      if (line.contains(test.prefix()) && !line.contains(" lua] ")) {
        seen.add(line.substring(line.indexOf("] ") + 2));
      }
    }
  }
}
