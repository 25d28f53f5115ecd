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
 * A Redis Cluster run by the test on free loopback ports: each node a {@link RedisServerProcess}
 * with {@code --cluster-enabled yes}, joined by {@code redis-cli --cluster create} (masters only,
 * or with replicas), ready once every node reports {@code cluster_state:ok} with all 16384 slots
 * assigned. The test can fail a primary over to its replica and move a slot to another primary, as
 * an operator would. {@link #close()} stops the nodes and deletes their folder (node configs and
 * logs).
 */
public final class LocalRedisCluster implements AutoCloseable {

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private final Path dir;
  private final List<RedisServerProcess> nodes = new ArrayList<>();
  private int replicas;
  private Duration nodeTimeout = Duration.ofSeconds(5);

  private LocalRedisCluster(Path dir) {
    this.dir = dir;
  }

  /** Starts {@code masters} nodes (at least 3, as {@code redis-cli --cluster create} demands). */
  public static LocalRedisCluster start(int masters) {
    return start(masters, 0, Duration.ofSeconds(5));
  }

  /**
   * Starts {@code masters} primaries with {@code replicas} replicas each; {@code nodeTimeout} is
   * how long a node may be unreachable before the others consider it failed.
   */
  public static LocalRedisCluster start(int masters, int replicas, Duration nodeTimeout) {
    Path dir;
    try {
      dir = Files.createTempDirectory("bulwark-redis-cluster-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    LocalRedisCluster cluster = new LocalRedisCluster(dir);
    cluster.replicas = replicas;
    cluster.nodeTimeout = nodeTimeout;
    try {
      cluster.startNodes(masters * (1 + replicas));
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

  private void startNodes(int count) {
    for (int i = 0; i < count; i++) {
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
              String.valueOf(nodeTimeout.toMillis()),
              // a replica's full sync starts at once instead of waiting 5 s for company
              "--repl-diskless-sync-delay",
              "0"));
    }
  }

  private void create() {
    List<String> command = new ArrayList<>();
    command.add(RedisBinaries.cli().toString());
    command.add("--cluster");
    command.add("create");
    nodes.forEach(n -> command.add(n.host() + ":" + n.port()));
    command.addAll(List.of("--cluster-replicas", String.valueOf(replicas), "--cluster-yes"));
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
          // a replica counts once it is in sync: until then WAIT finds no replica
          String replication = jedis.info("replication");
          if (replication.contains("role:master") && online(replication) < replicas) {
            allOk = false;
            lastInfo = node.port() + ": " + replication;
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

  private static long online(String replication) {
    return replication.lines().filter(line -> line.contains("state=online")).count();
  }

  /** The node that serves {@code slot} now, as the cluster's nodes agree. */
  public RedisServerProcess primaryOf(int slot) {
    return byPort(view().primaryOf(slot).port());
  }

  /** The primaries now, as the first node that answers sees them. */
  public List<RedisServerProcess> primaries() {
    return view().nodes.stream()
        .filter(n -> n.primary() && !n.failed())
        .map(n -> byPort(n.port()))
        .toList();
  }

  /**
   * Fails the primary of {@code slot} over to one of its replicas with {@code CLUSTER FAILOVER}
   * (coordinated: the replica takes over once it has every write of the primary, which becomes its
   * replica); returns the new primary once every node agrees it serves the slot.
   */
  public RedisServerProcess failOver(int slot) {
    ClusterView view = view();
    ClusterView.Node primary = view.primaryOf(slot);
    ClusterView.Node replica =
        view.nodes.stream()
            .filter(n -> primary.id().equals(n.primaryId()) && !n.failed())
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no replica of " + primary));
    RedisServerProcess promoted = byPort(replica.port());
    try (Jedis jedis = promoted.connect()) {
      jedis.clusterFailover();
    }
    awaitAgreement(slot, replica.id());
    return promoted;
  }

  /**
   * Moves {@code slot} with its keys to {@code target} (a primary), the way {@code redis-cli
   * --cluster reshard} does: importing and migrating marks, {@code MIGRATE} of its keys in batches,
   * then the new owner announced to every primary. Returns once every node agrees.
   */
  public void moveSlot(int slot, RedisServerProcess target) {
    ClusterView view = view();
    ClusterView.Node source = view.primaryOf(slot);
    RedisServerProcess from = byPort(source.port());
    try (Jedis to = target.connect();
        Jedis on = from.connect()) {
      String targetId = to.clusterMyId();
      to.clusterSetSlotImporting(slot, source.id());
      on.clusterSetSlotMigrating(slot, targetId);
      List<String> keys;
      while (!(keys = on.clusterGetKeysInSlot(slot, 100)).isEmpty()) {
        on.migrate(
            target.host(),
            target.port(),
            5000,
            new redis.clients.jedis.params.MigrateParams().replace(),
            keys.toArray(String[]::new));
      }
      to.clusterSetSlotNode(slot, targetId);
      on.clusterSetSlotNode(slot, targetId);
      for (ClusterView.Node node : view.nodes) {
        if (node.primary()
            && !node.failed()
            && node.port() != target.port()
            && node.port() != from.port()) {
          try (Jedis other = byPort(node.port()).connect()) {
            other.clusterSetSlotNode(slot, targetId);
          }
        }
      }
      awaitAgreement(slot, targetId);
    }
  }

  private void awaitAgreement(int slot, String ownerId) {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      boolean agreed = true;
      for (RedisServerProcess node : nodes) {
        if (!node.isRunning()) {
          continue;
        }
        try (Jedis jedis = node.connect()) {
          ClusterView seen = ClusterView.parse(jedis.clusterNodes());
          String info = jedis.clusterInfo();
          if (!seen.primaryOf(slot).id().equals(ownerId) || !info.contains("cluster_state:ok")) {
            agreed = false;
            last = node.port() + " sees " + seen.primaryOf(slot);
            break;
          }
        } catch (JedisException | IllegalStateException e) {
          agreed = false;
          last = e.toString();
          break;
        }
      }
      if (agreed) {
        return;
      }
      RedisServerProcess.sleep(20);
    }
    throw new IllegalStateException(
        "the nodes did not agree that " + ownerId + " serves slot " + slot + ": " + last);
  }

  private ClusterView view() {
    for (RedisServerProcess node : nodes) {
      if (node.isRunning()) {
        try (Jedis jedis = node.connect()) {
          return ClusterView.parse(jedis.clusterNodes());
        } catch (JedisException e) {
          // ask the next one
        }
      }
    }
    throw new IllegalStateException("no node of the cluster answers");
  }

  private RedisServerProcess byPort(int port) {
    return nodes.stream()
        .filter(n -> n.port() == port)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no node on port " + port));
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
