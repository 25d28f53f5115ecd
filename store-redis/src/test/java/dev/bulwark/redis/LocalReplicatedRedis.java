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
import redis.clients.jedis.RedisClient;

/**
 * A Redis master and one replica of it, started from the machine's {@code redis-server} on free
 * ports, for {@code bulwark.redis.wait-replicas}. The replica can be stopped ({@code SIGSTOP}) so
 * that it acknowledges nothing, and resumed. Without the binary the test is skipped (failed under
 * {@code CI=true}).
 */
final class LocalReplicatedRedis implements AutoCloseable {

  private static final Path SERVER = Path.of("/usr/bin/redis-server");

  private final Path dir;
  private final List<Process> processes = new ArrayList<>();
  private final int masterPort;
  private final int replicaPort;

  private LocalReplicatedRedis(Path dir, int masterPort, int replicaPort) {
    this.dir = dir;
    this.masterPort = masterPort;
    this.replicaPort = replicaPort;
  }

  static LocalReplicatedRedis start() throws IOException, InterruptedException {
    boolean installed = Files.isExecutable(SERVER);
    if (!installed && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException("redis-server is not installed; the replica test needs it");
    }
    Assumptions.assumeTrue(installed, "redis-server is not installed; replica test skipped");
    Path dir = Files.createTempDirectory("bulwark-replica");
    LocalReplicatedRedis redis = new LocalReplicatedRedis(dir, freePort(), freePort());
    try {
      redis.launch(redis.masterPort);
      redis.launch(
          redis.replicaPort, "--replicaof", "127.0.0.1", Integer.toString(redis.masterPort));
      redis.awaitReplicaInSync();
      return redis;
    } catch (IOException | InterruptedException | RuntimeException e) {
      redis.close();
      throw e;
    }
  }

  String masterUrl() {
    return "redis://127.0.0.1:" + masterPort;
  }

  RedisClient master() {
    return RedisClient.create("127.0.0.1", masterPort);
  }

  RedisClient replica() {
    return RedisClient.create("127.0.0.1", replicaPort);
  }

  /** Stops the replica process: it still holds its connection but acknowledges nothing. */
  void freezeReplica() throws IOException, InterruptedException {
    signalReplica("STOP");
  }

  void thawReplica() throws IOException, InterruptedException {
    signalReplica("CONT");
  }

  private void signalReplica(String signal) throws IOException, InterruptedException {
    Process kill =
        new ProcessBuilder("kill", "-" + signal, Long.toString(processes.get(1).pid())).start();
    if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill -" + signal + " of the replica failed");
    }
  }

  private void launch(int port, String... extra) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                SERVER.toString(),
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no"));
    command.addAll(List.of(extra));
    processes.add(
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("redis-" + port + ".log").toFile())
            .start());
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!TestRedisServer.answersPing("127.0.0.1", port)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("redis-server on port " + port + " did not start");
      }
      Thread.sleep(20);
    }
  }

  private void awaitReplicaInSync() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    try (RedisClient master = master()) {
      while (!master.info("replication").contains("state=online")) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the replica did not come online");
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
      // a stopped replica ignores SIGTERM until it runs again
      process.destroyForcibly();
    }
    for (Process process : processes) {
      try {
        process.waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try (var files = Files.walk(dir)) {
      files.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
    }
  }
}
