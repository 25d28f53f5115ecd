package dev.bulwark.redis;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * A Redis master and one Sentinel watching it, started from the machine's {@code redis-server} on
 * free ports, for the Sentinel topology. Without the binary the test is skipped (failed under
 * {@code CI=true}).
 */
final class LocalSentinel implements AutoCloseable {

  static final String MASTER_NAME = "bulwark-master";

  private final Path dir;
  private final List<Process> processes = new ArrayList<>();
  private final int masterPort;
  private final int sentinelPort;

  private LocalSentinel(Path dir, int masterPort, int sentinelPort) {
    this.dir = dir;
    this.masterPort = masterPort;
    this.sentinelPort = sentinelPort;
  }

  static LocalSentinel start() throws IOException, InterruptedException {
    boolean installed = Files.isExecutable(Path.of("/usr/bin/redis-server"));
    if (!installed && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException("redis-server is not installed; the Sentinel test needs it");
    }
    Assumptions.assumeTrue(installed, "redis-server is not installed; Sentinel test skipped");
    Path dir = Files.createTempDirectory("bulwark-sentinel");
    LocalSentinel sentinel = new LocalSentinel(dir, freePort(), freePort());
    try {
      sentinel.launch(
          "--port", Integer.toString(sentinel.masterPort), "--save", "", "--appendonly", "no");
      sentinel.awaitPing(sentinel.masterPort);
      Path config = dir.resolve("sentinel.conf");
      Files.writeString(
          config,
          String.join(
              "\n",
              "port " + sentinel.sentinelPort,
              "bind 127.0.0.1",
              "dir " + dir,
              "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + sentinel.masterPort + " 1",
              "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
              ""));
      sentinel.launch(config.toString(), "--sentinel");
      sentinel.awaitPing(sentinel.sentinelPort);
      sentinel.awaitMasterKnown();
      return sentinel;
    } catch (IOException | InterruptedException | RuntimeException e) {
      sentinel.close();
      throw e;
    }
  }

  HostAndPort sentinel() {
    return new HostAndPort("127.0.0.1", sentinelPort);
  }

  /** A direct connection to the master, to look at what the store wrote. */
  RedisClient master() {
    return RedisClient.create("127.0.0.1", masterPort);
  }

  private void launch(String... arguments) throws IOException {
    List<String> command = new ArrayList<>(List.of("/usr/bin/redis-server"));
    command.addAll(List.of(arguments));
    processes.add(
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("redis-" + processes.size() + ".log").toFile())
            .start());
  }

  private void awaitPing(int port) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!TestRedisServer.answersPing("127.0.0.1", port)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("redis-server on port " + port + " did not start");
      }
      Thread.sleep(20);
    }
  }

  private void awaitMasterKnown() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    try (Jedis sentinel = new Jedis("127.0.0.1", sentinelPort)) {
      while (sentinel.sentinelGetMasterAddrByName(MASTER_NAME).isEmpty()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the Sentinel does not know the master");
        }
        Thread.sleep(20);
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() throws IOException {
    for (Process process : processes) {
      process.destroy();
    }
    for (Process process : processes) {
      try {
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    try (var files = Files.walk(dir)) {
      files.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
    }
  }
}
