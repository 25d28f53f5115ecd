package dev.bulwark.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A Redis Cluster of masters only, run by the test on free loopback ports: each node a {@link
 * RedisServerProcess} with {@code --cluster-enabled yes}, joined by {@code redis-cli --cluster
 * create}, ready once every node reports {@code cluster_state:ok} with all 16384 slots assigned.
 * {@link #close()} stops the nodes and deletes their folder (node configs and logs).
 */
public final class LocalRedisCluster implements AutoCloseable {

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private final Path dir;
  private final List<RedisServerProcess> nodes = new ArrayList<>();

  private LocalRedisCluster(Path dir) {
    this.dir = dir;
  }

  /** Starts {@code masters} nodes (at least 3, as {@code redis-cli --cluster create} demands). */
  public static LocalRedisCluster start(int masters) {
    Path dir;
    try {
      dir = Files.createTempDirectory("bulwark-redis-cluster-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    LocalRedisCluster cluster = new LocalRedisCluster(dir);
    try {
      cluster.startNodes(masters);
      cluster.create();
      cluster.awaitReady();
      return cluster;
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  /** {@code host:port,host:port,...}, the form {@code bulwark.redis.cluster-nodes} takes. */
  public String nodeList() {
    return nodes.stream().map(n -> n.host() + ":" + n.port()).collect(Collectors.joining(","));
  }

  public List<RedisServerProcess> nodes() {
    return List.copyOf(nodes);
  }

  private void startNodes(int masters) {
    for (int i = 0; i < masters; i++) {
      int port = FreePorts.pairWithBusPort();
      nodes.add(
          RedisServerProcess.start(
              dir,
              port,
              "--cluster-enabled",
              "yes",
              "--cluster-config-file",
              dir.resolve("nodes-" + port + ".conf").toAbsolutePath().toString(),
              "--cluster-node-timeout",
              "5000"));
    }
  }

  private void create() {
    List<String> command = new ArrayList<>();
    command.add(RedisBinaries.cli().toString());
    command.add("--cluster");
    command.add("create");
    nodes.forEach(n -> command.add(n.host() + ":" + n.port()));
    command.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
    Path log = dir.resolve("cluster-create.log");
    try {
      Process create =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      if (!create.waitFor(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        create.destroyForcibly();
        throw new IllegalStateException(
            "redis-cli --cluster create did not finish: " + Files.readString(log));
      }
      if (create.exitValue() != 0) {
        throw new IllegalStateException(
            "redis-cli --cluster create failed ("
                + create.exitValue()
                + "): "
                + Files.readString(log));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    String lastInfo = "";
    while (System.nanoTime() < deadline) {
      boolean allOk = true;
      for (RedisServerProcess node : nodes) {
        try (Jedis jedis = node.connect()) {
          lastInfo = jedis.clusterInfo();
          if (!lastInfo.contains("cluster_state:ok")
              || !lastInfo.contains("cluster_slots_ok:16384")) {
            allOk = false;
            break;
          }
        } catch (JedisException e) {
          allOk = false;
          lastInfo = e.toString();
          break;
        }
      }
      if (allOk) {
        return;
      }
      RedisServerProcess.sleep(50);
    }
    throw new IllegalStateException(
        "the cluster " + nodeList() + " was not ready within " + READY_TIMEOUT + ": " + lastInfo);
  }

  @Override
  public void close() {
    nodes.forEach(RedisServerProcess::shutdown);
    nodes.forEach(RedisServerProcess::close);
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover temp folder is harmless
    }
  }
}
