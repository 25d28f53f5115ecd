package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisMonitor;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * What reaches the test's Redis from its clients, as MONITOR shows it: the commands that name this
 * test's keys (not those a script runs, which MONITOR marks {@code lua}). The server is shared, so
 * only lines with the test's prefix count, between two markers the monitor sends itself (an ECHO).
 */
final class RedisMonitor implements AutoCloseable {

  private static final Duration MARKER_TIMEOUT = Duration.ofSeconds(10);

  private final TestRedis test;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final Jedis monitor;
  private final Thread monitoring;

  /** Starts MONITOR and returns once it shows a command sent after it. */
  static RedisMonitor start(TestRedis test) throws InterruptedException {
    RedisMonitor started = new RedisMonitor(test);
    long deadline = System.nanoTime() + MARKER_TIMEOUT.toNanos();
    while (started.commandsUntil(test.prefix() + "monitor-on", Duration.ofMillis(200)) == null) {
      assertThat(System.nanoTime()).as("MONITOR started").isLessThan(deadline);
    }
    return started;
  }

  private RedisMonitor(TestRedis test) {
    this.test = test;
    HostAndPort server = JedisURIHelper.getHostAndPort(URI.create(test.url()));
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
  }

  /** The client commands naming the test's keys since the last marker, up to a new one. */
  List<String> commandsSent() {
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
   * Sends {@code marker} and returns the client commands with the test's prefix that MONITOR showed
   * before it; null when the marker did not show within {@code timeout}.
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

  @Override
  public void close() throws InterruptedException {
    monitor.disconnect();
    monitoring.join(TimeUnit.SECONDS.toMillis(10));
  }
}
