package dev.bulwark.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.ClientKillParams;

/**
 * A master, one replica and three Sentinels (quorum 2), all real {@code redis-server} processes on
 * free loopback ports, the Sentinels started with {@code --sentinel} (so no {@code redis-sentinel}
 * binary is needed). The test can cut replication (the replica keeps running but can no longer
 * authenticate to its master, so nothing reaches it), kill the master and start it again, and wait
 * for the Sentinels to promote the replica. {@link #close()} kills everything and deletes the
 * folder.
 */
public final class LocalSentinelGroup implements AutoCloseable {

  public static final String MASTER_NAME = "bulwark-it-master";

  private static final int SENTINELS = 3;
  private static final int QUORUM = 2;
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private final Path dir;
  private final Duration downAfter;
  private final RedisServerProcess master;
  private final RedisServerProcess replica;
  private final List<Process> sentinels = new ArrayList<>();
  private final List<Integer> sentinelPorts = new ArrayList<>();

  private LocalSentinelGroup(
      Path dir, Duration downAfter, RedisServerProcess master, RedisServerProcess replica) {
    this.dir = dir;
    this.downAfter = downAfter;
    this.master = master;
    this.replica = replica;
  }

  /**
   * Starts the group; returns once the replica is in sync and every Sentinel knows the master, the
   * replica and the other Sentinels. {@code downAfter}: how long the master may be silent before a
   * Sentinel considers it down.
   */
  public static LocalSentinelGroup start(Duration downAfter) {
    Path dir;
    try {
      dir = Files.createTempDirectory("bulwark-sentinel-group-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    RedisServerProcess master = null;
    RedisServerProcess replica = null;
    try {
      // a full sync starts at once instead of waiting 5 s for more replicas to share it
      master = RedisServerProcess.start(dir, "--repl-diskless-sync-delay", "0");
      replica =
          RedisServerProcess.start(
              dir,
              "--repl-diskless-sync-delay",
              "0",
              "--replicaof",
              master.host(),
              String.valueOf(master.port()));
    } catch (RuntimeException | Error e) {
      if (master != null) {
        master.close();
      }
      throw e;
    }
    LocalSentinelGroup group = new LocalSentinelGroup(dir, downAfter, master, replica);
    try {
      group.awaitReplicaOnline();
      for (int i = 0; i < SENTINELS; i++) {
        group.startSentinel();
      }
      group.awaitSentinelsReady();
      return group;
    } catch (RuntimeException | Error e) {
      group.close();
      throw e;
    }
  }

  /** {@code host:port,...}, the form {@code bulwark.redis.sentinel.nodes} takes. */
  public String sentinelNodes() {
    return sentinelPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
  }

  public RedisServerProcess master() {
    return master;
  }

  public RedisServerProcess replica() {
    return replica;
  }

  /**
   * Cuts replication: the replica is made to log in to its master as a user that does not exist,
   * and its link is closed, so it keeps trying and failing; writes on the master from now on reach
   * no replica. Returns once the master counts no replica.
   */
  public void cutReplication() {
    try (Jedis onReplica = replica.connect()) {
      onReplica.configSet(Map.of("masteruser", "bulwark-cut", "masterauth", "cut"));
    }
    try (Jedis onMaster = master.connect()) {
      onMaster.clientKill(ClientKillParams.clientKillParams().type(ClientType.REPLICA));
      long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
      while (!onMaster.info("replication").contains("connected_slaves:0")) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the master still counts a replica after the cut");
        }
        RedisServerProcess.sleep(10);
      }
    }
  }

  /**
   * A coordinated failover ({@code SENTINEL FAILOVER}): the replica takes over once it has every
   * write. Returns once it is promoted; the old master, still running, is turned into its replica
   * only when a Sentinel next looks at it (up to 10 s later), and stays a master until then.
   */
  public long failOverCoordinated(Duration timeout) {
    try (Jedis sentinel = connect(sentinelPorts.get(0))) {
      sentinel.sentinelFailover(MASTER_NAME);
    }
    return awaitReplicaPromoted(timeout);
  }

  /** SIGKILL of the master: whatever it had not sent to the replica is gone. */
  public void killMaster() {
    master.close();
  }

  /**
   * Waits until every Sentinel names the replica as master and the replica runs as one; returns the
   * {@link System#nanoTime()} at which that was first seen.
   */
  public long awaitReplicaPromoted(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    String expected = String.valueOf(replica.port());
    String last = "";
    while (System.nanoTime() < deadline) {
      boolean promoted = true;
      for (int port : sentinelPorts) {
        try (Jedis sentinel = connect(port)) {
          List<String> address = sentinel.sentinelGetMasterAddrByName(MASTER_NAME);
          last = port + " names " + address;
          if (address.size() != 2 || !address.get(1).equals(expected)) {
            promoted = false;
            break;
          }
        } catch (JedisException e) {
          promoted = false;
          last = e.toString();
          break;
        }
      }
      if (promoted) {
        try (Jedis jedis = replica.connect()) {
          if (jedis.info("replication").contains("role:master")) {
            return System.nanoTime();
          }
        } catch (JedisException e) {
          last = e.toString();
        }
      }
      RedisServerProcess.sleep(20);
    }
    throw new IllegalStateException(
        "the Sentinels did not promote the replica within " + timeout + ": " + last);
  }

  /**
   * Starts the killed master again, empty, on its port, as a replica of the promoted one (what the
   * Sentinels would tell it on their next look at it, up to 10 s later). Returns once the new
   * master counts it as an online replica.
   */
  public void restartOldMasterAsReplica(Duration timeout) {
    master.startAgain();
    try (Jedis old = master.connect()) {
      old.replicaof(replica.host(), replica.port());
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Jedis promoted = replica.connect()) {
      while (!promoted.info("replication").contains("state=online")) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "the old master did not rejoin as a replica within " + timeout);
        }
        RedisServerProcess.sleep(20);
      }
    }
  }

  private void startSentinel() {
    int port = FreePorts.any();
    Path config = dir.resolve("sentinel-" + port + ".conf");
    try {
      Files.writeString(
          config,
          String.join(
              "\n",
              "port " + port,
              "bind 127.0.0.1",
              "dir " + dir.toAbsolutePath(),
              "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + master.port() + " " + QUORUM,
              "sentinel down-after-milliseconds " + MASTER_NAME + " " + downAfter.toMillis(),
              "sentinel failover-timeout " + MASTER_NAME + " " + 10_000,
              "sentinel parallel-syncs " + MASTER_NAME + " 1",
              ""));
      Process process =
          new ProcessBuilder(
                  RedisBinaries.server().toString(),
                  config.toAbsolutePath().toString(),
                  "--sentinel")
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("sentinel-" + port + ".log").toFile())
              .start();
      sentinels.add(process);
      sentinelPorts.add(port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a Sentinel on port " + port, e);
    }
  }

  private void awaitReplicaOnline() {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    try (Jedis jedis = master.connect()) {
      while (!jedis.info("replication").contains("state=online")) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the replica did not come online");
        }
        RedisServerProcess.sleep(20);
      }
    }
  }

  /** Every Sentinel knows the master, the replica and the other two Sentinels. */
  private void awaitSentinelsReady() {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      boolean ready = true;
      for (int port : sentinelPorts) {
        try (Jedis sentinel = connect(port)) {
          int replicas = sentinel.sentinelReplicas(MASTER_NAME).size();
          int others = sentinel.sentinelSentinels(MASTER_NAME).size();
          last = port + " knows " + replicas + " replicas, " + others + " sentinels";
          if (replicas != 1 || others != SENTINELS - 1) {
            ready = false;
            break;
          }
        } catch (JedisException e) {
          ready = false;
          last = port + ": " + e;
          break;
        }
      }
      if (ready) {
        return;
      }
      RedisServerProcess.sleep(50);
    }
    throw new IllegalStateException("the Sentinels did not get ready: " + last);
  }

  private static Jedis connect(int port) {
    return new Jedis(
        "127.0.0.1",
        port,
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(1000)
            .socketTimeoutMillis(2000)
            .build());
  }

  @Override
  public void close() {
    for (Process sentinel : sentinels) {
      sentinel.destroyForcibly();
    }
    for (Process sentinel : sentinels) {
      try {
        sentinel.waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    master.close();
    replica.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover temp folder is harmless
    }
  }
}
