package dev.bulwark.redis;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import dev.bulwark.redis.client.RedisConnection;
import dev.bulwark.redis.client.RedisConnector;
import dev.bulwark.redis.client.RedisOutageGate;
import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.redis.client.ReplicaAcks;
import dev.bulwark.redis.client.ScriptPipeline;
import dev.bulwark.redis.client.SlotPipelines;
import dev.bulwark.redis.client.WakeUpChannel;
import dev.bulwark.redis.client.WakeUpNotices;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateStore;
import dev.bulwark.spi.StoreStatus;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis store: the three primitives as Lua scripts on the server's clock, leases renewed in
 * batches, and one pub/sub subscription per JVM through which a release wakes the waiter it hands
 * its permit to.
 */
public final class RedisStore implements BulwarkStore {

  private static final BulwarkLog LOG = BulwarkLog.of(RedisStore.class);

  /**
   * Enough that a call arriving while its limit's batches are out goes at once (a round trip of
   * about a millisecond holds a few batches of a busy limit), few enough that batches stay large.
   */
  static final int PIPELINED_BATCHES_IN_FLIGHT = 4;

  private final RedisSettings settings;
  private final RedisConnection connection;
  private final RedisPermits permits;
  private final RedisRates rates;
  private final RedisLocks locks;
  private final LeaseRenewal renewal;
  private final WakeUpChannel wakeUps;
  private final WakeUpNotices notices;
  private final RedisOutageGate gate;
  private final String instance;
  private final String probeKey;

  /** The pipelined connection batches go on, several in flight; null on a Cluster. */
  private final ScriptPipeline pipeline;

  /** Where a pipelined batch that failed is sent again or given up; null without a pipeline. */
  private final ExecutorService offPipeline;

  private final RedisCalls calls;

  private RedisStore(RedisSettings settings, RedisConnection connection, GrantListener listener) {
    this.settings = settings;
    this.connection = connection;
    UnifiedJedis redis = connection.client();
    this.instance = newInstanceId();
    RedisKeys keys = new RedisKeys(settings.keyPrefix());
    this.probeKey = keys.prefix() + "probe";
    this.notices = WakeUpNotices.forListener(listener);
    this.gate =
        new RedisOutageGate(
            settings.describe(), settings.reconnectInterval(), connection::dropIdleConnections);
    RedisCalls calls =
        new RedisCalls(
            redis,
            gate,
            instance,
            notices.secret(),
            settings.waitReplicas() > 0
                ? new ReplicaAcks(
                    connection, settings.waitReplicas(), settings.waitReplicasTimeout())
                : null);
    this.calls = calls;
    boolean cluster = settings.topology() == RedisSettings.Topology.CLUSTER;
    this.pipeline = RedisConnector.pipeline(settings, connection);
    if (pipeline != null && settings.waitReplicas() == 0) {
      this.offPipeline =
          Executors.newCachedThreadPool(
              task -> {
                Thread thread = new Thread(task, "bulwark-redis-resend");
                thread.setDaemon(true);
                return thread;
              });
      calls.pipelineBatches(pipeline, offPipeline);
    } else {
      this.offPipeline = null;
    }
    SlotPipelines pipelines = cluster ? new SlotPipelines(connection) : null;
    this.permits = new RedisPermits(calls, keys, listener);
    this.rates = new RedisRates(calls, keys, cluster);
    this.locks = new RedisLocks(calls, keys, listener, pipelines);
    this.renewal =
        cluster ? new LeaseRenewal(calls, keys, pipelines) : new LeaseRenewal(calls, keys, false);
    this.wakeUps =
        new WakeUpChannel(
            settings, connection, keys.wakeUpChannel(instance), notices, listener::wakeUpsChanged);
  }

  /** Connects as the settings say and subscribes to this JVM's wake-up channel. */
  public static RedisStore open(RedisSettings settings, GrantListener listener) {
    RedisStore store = new RedisStore(settings, RedisConnector.open(settings), listener);
    try {
      if (!store.wakeUps.awaitSubscribed(settings.connectTimeout())) {
        LOG.warn(
            LogMessage.REDIS_NOT_SUBSCRIBED_YET,
            settings.describe(),
            settings.wakeUpCheckInterval().toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info(LogMessage.REDIS_STORE_OPENED, settings, store.instance);
    return store;
  }

  /** This JVM's id in Redis: the first part of its members and the name of its wake-up channel. */
  public String instance() {
    return instance;
  }

  public RedisSettings settings() {
    return settings;
  }

  /** Whether this JVM currently receives wake-ups (tests and health checks). */
  public boolean wakeUpsSubscribed() {
    return wakeUps.isSubscribed();
  }

  /**
   * Reachable while calls reach Redis and this JVM's wake-up subscription is up: a JVM whose
   * subscription is down hands permits over only at each waiter's poll, so it is not ready.
   */
  @Override
  public StoreStatus status() {
    boolean subscribed = wakeUps.isSubscribed();
    boolean answering = !gate.isDown();
    return new StoreStatus(
        subscribed && answering,
        Map.of(
            "wake-up-subscription", subscribed ? "up" : "down",
            "calls", answering ? "answered" : "failing fast until Redis answers"));
  }

  /** How many messages on this JVM's wake-up channel were dropped as not signed by the store. */
  public long rejectedWakeUps() {
    return notices.rejected();
  }

  /**
   * The notice the store's scripts would publish for a hand-over (tests mark their end with it).
   */
  String wakeUpNotice(long requestId, long token) {
    return notices.notice(requestId, token);
  }

  @Override
  public PermitStore permits() {
    return permits;
  }

  @Override
  public RateStore rates() {
    return rates;
  }

  @Override
  public LockStore locks() {
    return locks;
  }

  /**
   * Yes: a batch of operations on one bulkhead, lock name or rate limit is one script call (on a
   * Cluster, one per slot a lock batch touches, pipelined).
   */
  @Override
  public boolean batches() {
    return true;
  }

  /**
   * Several batches of a limit in flight where they go pipelined on one connection (one server or
   * Sentinel, no {@code wait-replicas}), in the order written; one at a time otherwise.
   */
  @Override
  public int batchesInFlight() {
    return calls.pipelinesBatches() ? PIPELINED_BATCHES_IN_FLIGHT : 1;
  }

  @Override
  public boolean leasesExpire() {
    return true;
  }

  @Override
  public List<Lease> renew(List<Lease> leases) {
    return renewal.renew(leases);
  }

  @Override
  public Duration wakeUpCheckInterval() {
    return settings.wakeUpCheckInterval();
  }

  /** Changes each time a wake-up subscription is lost or made; -1 while one is down. */
  @Override
  public long wakeUpEpoch() {
    return wakeUps.epoch();
  }

  /**
   * One read of a key nobody writes, behind the outage gate: on a Cluster it reaches the primary of
   * that key's slot, so it answers whatever the topology.
   */
  @Override
  public void probe() {
    gate.call(() -> connection.client().exists(probeKey));
  }

  @Override
  public Duration reconnectInterval() {
    return settings.reconnectInterval();
  }

  @Override
  public void close() {
    wakeUps.close();
    if (pipeline != null) {
      pipeline.close();
    }
    if (offPipeline != null) {
      offPipeline.shutdown();
    }
    connection.close();
  }

  private static String newInstanceId() {
    byte[] id = new byte[8];
    new SecureRandom().nextBytes(id);
    return HexFormat.of().formatHex(id);
  }
}
