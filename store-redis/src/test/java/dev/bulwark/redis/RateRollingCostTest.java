package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/**
 * What one call of the rolling script costs inside Redis, by Redis' own accounting: the commands it
 * runs, counted by {@code INFO commandstats} on a server of its own (started from the machine's
 * {@code redis-server} on a free port, so no other client's commands are counted). A call must cost
 * what expired, not the length of the log: a limit of 100 000 whose whole window expires at once
 * used to pop it entry by entry (two commands each), blocking every other client meanwhile.
 */
class RateRollingCostTest {

  private static final int VALUE = 100_000;
  private static final long WINDOW_MICROS = 60_000_000;
  private static final String KEY = "cost{r:large}:rolling";

  /** Appends ARGV[1] times to KEYS[1]: ARGV[2] + i * ARGV[3], in chunks RPUSH accepts. */
  private static final String FILL =
      """
      local count, first, step = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
      local chunk = {}
      for i = 0, count - 1 do
        chunk[#chunk + 1] = string.format('%.0f', first + i * step)
        if #chunk == 5000 or i == count - 1 then
          redis.call('RPUSH', KEYS[1], unpack(chunk))
          chunk = {}
        end
      end
      return redis.call('LLEN', KEYS[1])
      """;

  private static Path dir;
  private static Process server;
  private static RedisClient redis;

  @BeforeAll
  static void startServer() throws IOException, InterruptedException {
    Path binary = Path.of("/usr/bin/redis-server");
    boolean installed = Files.isExecutable(binary);
    if (!installed && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException("redis-server is not installed; the cost test needs it");
    }
    Assumptions.assumeTrue(installed, "redis-server is not installed; cost test skipped");
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    dir = Files.createTempDirectory("bulwark-rate-cost");
    server =
        new ProcessBuilder(
                binary.toString(),
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no")
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("redis.log").toFile())
            .start();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!TestRedisServer.answersPing("127.0.0.1", port)) {
      if (System.nanoTime() > deadline || !server.isAlive()) {
        throw new IllegalStateException("redis-server on port " + port + " did not start");
      }
      Thread.sleep(20);
    }
    redis = RedisClient.create("127.0.0.1", port);
  }

  @AfterAll
  static void stopServer() throws IOException, InterruptedException {
    if (redis != null) {
      redis.close();
    }
    if (server != null) {
      server.destroy();
      if (!server.waitFor(5, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
    if (dir != null) {
      try (var files = Files.walk(dir)) {
        files.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
      }
    }
  }

  @BeforeEach
  void emptyLog() {
    redis.del(KEY);
  }

  @Test
  void aWholeWindowThatExpiresAtOnceIsRemovedInOneTrim() {
    long now = serverMicros();
    fill(VALUE, now - WINDOW_MICROS - VALUE - 60_000_000);

    Map<String, Long> commands = oneCall();

    assertThat(commands.getOrDefault("lpop", 0L)).isZero();
    assertThat(commands.get("ltrim")).isEqualTo(1);
    assertThat(commands.get("lindex")).isLessThanOrEqualTo(probesFor(VALUE));
    assertThat(redis.llen(KEY)).isEqualTo(1);
  }

  @Test
  void partOfTheLogExpiringCostsWhatExpired() {
    long now = serverMicros();
    int expired = VALUE / 2;
    fill(expired, now - WINDOW_MICROS - expired - 60_000_000);
    fill(VALUE - expired, now - WINDOW_MICROS / 2);

    Map<String, Long> commands = oneCall();

    assertThat(commands.get("lindex")).isLessThanOrEqualTo(probesFor(expired));
    assertThat(commands.get("ltrim")).isEqualTo(1);
    assertThat(redis.llen(KEY)).isEqualTo(VALUE - expired + 1);
    List<Long> head = redis.lrange(KEY, 0, 1).stream().map(Long::parseLong).toList();
    assertThat(head.get(0)).isGreaterThan(now - WINDOW_MICROS);
  }

  @Test
  void aCallInAFullWindowReadsNearTheEndsOfTheLogOnly() {
    long now = serverMicros();
    fill(1, now - WINDOW_MICROS - 60_000_000);
    fill(VALUE - 1, now - WINDOW_MICROS / 2);

    Map<String, Long> commands = oneCall();

    assertThat(commands.get("lindex")).isLessThanOrEqualTo(probesFor(1));
    assertThat(commands.getOrDefault("lpop", 0L) + commands.getOrDefault("ltrim", 0L)).isEqualTo(1);
    assertThat(redis.llen(KEY)).isEqualTo(VALUE);
  }

  /**
   * LINDEX calls allowed when {@code expired} times expire: the clamp, the head, a galloping then a
   * binary search (each about log2 of what expired) and the slot of a full log.
   */
  private static long probesFor(int expired) {
    return 2L * (64 - Long.numberOfLeadingZeros(expired)) + 4;
  }

  private void fill(int count, long first) {
    redis.eval(
        FILL,
        List.of(KEY),
        List.of(Integer.toString(count), Long.toString(first), Long.toString(1)));
  }

  /** One call of the script; the commands it ran, by name, with their usec in the log. */
  private Map<String, Long> oneCall() {
    redis.scriptLoad(Scripts.RATE_ROLLING.source());
    redis.sendCommand(Protocol.Command.CONFIG, "RESETSTAT");
    Object reply =
        Scripts.RATE_ROLLING.run(
            redis,
            List.of(KEY),
            List.of(Integer.toString(VALUE), Long.toString(WINDOW_MICROS), "0"));
    String stats = redis.info("commandstats");
    Map<String, Long> calls = new HashMap<>();
    long scriptMicros = 0;
    for (String line : stats.split("\r?\n")) {
      if (!line.startsWith("cmdstat_")) {
        continue;
      }
      String name = line.substring("cmdstat_".length(), line.indexOf(':'));
      Map<String, String> fields = new HashMap<>();
      for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
        String[] pair = field.split("=", 2);
        fields.put(pair[0], pair[1]);
      }
      calls.put(name, Long.parseLong(fields.get("calls")));
      if (name.equals("evalsha")) {
        scriptMicros = Long.parseLong(fields.get("usec"));
      }
    }
    System.out.printf(
        "RateRollingCostTest: reply %s, %s µs inside Redis, commands %s%n",
        reply, scriptMicros, calls);
    return calls;
  }

  private long serverMicros() {
    List<?> time = (List<?>) redis.eval("return redis.call('TIME')");
    return Long.parseLong(String.valueOf(time.get(0))) * 1_000_000L
        + Long.parseLong(String.valueOf(time.get(1)));
  }
}
