package dev.bulwark.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A {@code redis-server} of the test's own, on a port of its own, without persistence ({@code
 * --save "" --appendonly no}), so a test may stop it and start it again on the same port (an
 * outage) or form a cluster of several. Its output goes to {@code redis-PORT.log} in its folder.
 * {@link #close()} kills it if still running.
 */
public final class RedisServerProcess implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(15);

  private final Path dir;
  private final int port;
  private final List<String> extraArgs;
  private Process process;

  private RedisServerProcess(Path dir, int port, List<String> extraArgs) {
    this.dir = dir;
    this.port = port;
    this.extraArgs = List.copyOf(extraArgs);
  }

  /** Starts a server on a free port, with {@code dir} as its working folder. */
  public static RedisServerProcess start(Path dir, String... extraArgs) {
    return start(dir, FreePorts.any(), extraArgs);
  }

  /** Starts a server on {@code port}; waits until it answers {@code PING}. */
  public static RedisServerProcess start(Path dir, int port, String... extraArgs) {
    RedisServerProcess server = new RedisServerProcess(dir, port, List.of(extraArgs));
    server.startAgain();
    return server;
  }

  public int port() {
    return port;
  }

  public String host() {
    return "127.0.0.1";
  }

  public String url() {
    return "redis://" + host() + ":" + port;
  }

  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** Starts the server (again) on its port, with an empty data set. */
  public synchronized void startAgain() {
    if (isRunning()) {
      throw new IllegalStateException("redis-server on port " + port + " is already running");
    }
    try {
      Files.createDirectories(dir);
      List<String> command = new ArrayList<>();
      command.add(RedisBinaries.server().toString());
      command.addAll(
          List.of(
              "--port",
              String.valueOf(port),
              "--bind",
              host(),
              "--save",
              "",
              "--appendonly",
              "no",
              "--daemonize",
              "no",
              "--dir",
              dir.toAbsolutePath().toString()));
      command.addAll(extraArgs);
      Path log = dir.resolve("redis-" + port + ".log");
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start redis-server on port " + port, e);
    }
    awaitAnswering(START_TIMEOUT);
  }

  /**
   * SIGSTOP ({@link ProcessSignals}): the server keeps its data and connections, answers nothing.
   */
  public synchronized void pause() {
    ProcessSignals.stop(process);
  }

  /** SIGCONT after {@link #pause()}: it answers what it was sent meanwhile. */
  public synchronized void resume() {
    ProcessSignals.resume(process);
  }

  /** Stops the server at once, dropping its data ({@code SHUTDOWN NOSAVE}); waits for its exit. */
  public synchronized void shutdown() {
    if (!isRunning()) {
      return;
    }
    try (Jedis jedis = connect()) {
      jedis.shutdown(redis.clients.jedis.params.ShutdownParams.shutdownParams().nosave());
    } catch (JedisException e) {
      // the server closes the connection as it goes: expected
    }
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  /** A new connection to the server, for the test's own commands. */
  public Jedis connect() {
    return new Jedis(
        host(),
        port,
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(1000)
            .socketTimeoutMillis(5000)
            .build());
  }

  private void awaitAnswering(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    JedisException last = null;
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "redis-server on port " + port + " exited with " + process.exitValue() + "; " + log());
      }
      try (Jedis jedis = connect()) {
        if ("PONG".equals(jedis.ping())) {
          return;
        }
      } catch (JedisException e) {
        last = e;
      }
      sleep(20);
    }
    throw new IllegalStateException(
        "redis-server on port " + port + " did not answer within " + timeout + "; " + log(), last);
  }

  private String log() {
    Path log = dir.resolve("redis-" + port + ".log");
    try {
      return Files.exists(log) ? "log: " + Files.readString(log) : "no log";
    } catch (IOException e) {
      return "log unreadable: " + e;
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public synchronized void close() {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
