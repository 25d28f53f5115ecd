package dev.bulwark.redis.client;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;

/**
 * This JVM's wake-up channel. On one server that is one subscription; behind Sentinel, one that
 * follows the master. On a Cluster, a script publishes on the node of the limit's keys and Redis
 * relays the message to the other nodes over the cluster bus, one more hop and a late one on a busy
 * node; so the JVM subscribes on every primary and hears each hand-over first from the node that
 * made it. The copies that follow change nothing: a signal is idempotent and a request id is never
 * reused. Primaries change (a replica promoted, a node given slots), so the JVM looks them up once
 * per reconnect interval, subscribes on new ones and drops the rest.
 */
public final class WakeUpChannel implements AutoCloseable {

  private static final BulwarkLog LOG = BulwarkLog.of(WakeUpChannel.class);

  private final RedisSettings settings;
  private final RedisConnection connection;
  private final String channel;
  private final WakeUpNotices notices;
  private final ScheduledExecutorService watcher;

  /** How many times a subscription was lost or made: the epoch's value while all are up. */
  private long changes; // guarded by changing

  private final Object changing = new Object();

  /** What {@link #epoch()} answers, set at each change so that reading it costs a volatile read. */
  private volatile long epoch = -1;

  /** Told after each change (the waiters that trusted the old epoch look again). */
  private final Runnable onChange;

  /** PINGs every subscription once per reconnect interval (see {@link WakeUpSubscription}). */
  private final ScheduledExecutorService checker;

  /** One server or Sentinel: the one subscription; null on a Cluster. */
  private final WakeUpSubscription single;

  /** Guarded by {@code this}: on a Cluster, the subscription on each primary. */
  private final Map<HostAndPort, NodeSubscription> subscriptions = new LinkedHashMap<>();

  private boolean closed;

  private record NodeSubscription(WakeUpSubscription subscription) {
    void close() {
      subscription.close();
    }
  }

  /**
   * @param onChange told each time a subscription is lost or made, after {@link #epoch()} changed
   */
  public WakeUpChannel(
      RedisSettings settings,
      RedisConnection connection,
      String channel,
      WakeUpNotices notices,
      Runnable onChange) {
    this.settings = settings;
    this.onChange = onChange;
    this.connection = connection;
    this.channel = channel;
    this.notices = notices;
    this.checker = daemonScheduler("bulwark-redis-wake-up-checks");
    if (connection.isCluster()) {
      single = null;
      connection.primaryNodes().forEach(this::subscribeOn);
    } else {
      HostAndPort server = RedisConnector.standaloneServer(settings);
      single =
          subscription(
              () -> {
                HostAndPort master = connection.currentMaster();
                return RedisConnector.subscriptionConnection(
                    settings, master != null ? master : server);
              },
              connection::currentMaster);
    }
    boolean follows = connection.isCluster() || connection.currentMaster() != null;
    if (follows) {
      watcher = daemonScheduler("bulwark-redis-topology");
      long period = settings.reconnectInterval().toMillis();
      watcher.scheduleWithFixedDelay(this::followTopology, period, period, TimeUnit.MILLISECONDS);
    } else {
      watcher = null;
    }
    // a subscription made before its field or map entry was set counted as down: count it now
    synchronized (changing) {
      settleEpoch();
    }
  }

  private static ScheduledExecutorService daemonScheduler(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        task -> {
          Thread thread = new Thread(task, name);
          thread.setDaemon(true);
          return thread;
        });
  }

  /** A subscription whose silence is noticed within the read timeout after a PING. */
  private WakeUpSubscription subscription(
      Supplier<Connection> connections, Supplier<HostAndPort> currentNode) {
    return new WakeUpSubscription(
        connections,
        currentNode,
        channel,
        notices,
        this::changed,
        settings.reconnectInterval(),
        checker,
        settings.reconnectInterval(),
        settings.readTimeout());
  }

  /** Waits until every subscription is active, so early waiters need not poll. */
  public boolean awaitSubscribed(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (WakeUpSubscription subscription : current()) {
      long left = deadline - System.nanoTime();
      if (!subscription.awaitSubscribed(Duration.ofNanos(Math.max(0, left)))) {
        return false;
      }
    }
    return true;
  }

  /**
   * A number that stays the same while no wake-up can have been lost: the count of subscriptions
   * lost or made, read while every subscription is up; -1 while one is not (a notice published on
   * its node now is lost). A notice is lost only on a subscription that then ends (its connection
   * broke, or went silent and was closed) or on a primary not yet subscribed, and either is
   * followed by a subscription made, which changes the number.
   */
  public long epoch() {
    return epoch;
  }

  /** A subscription was lost or made: the epoch moves on, then the waiters are told. */
  private void changed() {
    synchronized (changing) {
      changes++;
      settleEpoch();
    }
    onChange.run();
  }

  /** The epoch from the subscriptions as they are now; guarded by {@code changing}. */
  private void settleEpoch() {
    epoch = isSubscribed() ? changes : -1;
  }

  public boolean isSubscribed() {
    List<WakeUpSubscription> all = current();
    return !all.isEmpty() && all.stream().allMatch(WakeUpSubscription::isSubscribed);
  }

  private synchronized List<WakeUpSubscription> current() {
    if (single != null) {
      return List.of(single);
    }
    return subscriptions.values().stream().map(NodeSubscription::subscription).toList();
  }

  private void followTopology() {
    try {
      if (single != null) {
        single.followCurrentNode();
        return;
      }
      connection.refreshTopology();
      Set<HostAndPort> primaries = new HashSet<>(connection.primaryNodes());
      if (primaries.isEmpty()) {
        return;
      }
      List<NodeSubscription> dropped = new ArrayList<>();
      boolean added = false;
      synchronized (this) {
        if (closed) {
          return;
        }
        subscriptions
            .entrySet()
            .removeIf(
                entry -> {
                  if (primaries.contains(entry.getKey())) {
                    return false;
                  }
                  LOG.info(LogMessage.REDIS_PRIMARY_GONE, entry.getKey());
                  dropped.add(entry.getValue());
                  return true;
                });
        for (HostAndPort primary : primaries) {
          if (!subscriptions.containsKey(primary)) {
            LOG.info(LogMessage.REDIS_PRIMARY_NEW, primary);
            subscribeOn(primary);
            added = true;
          }
        }
      }
      if (added) {
        changed(); // -1 until the new primary's subscription is made: a notice there is lost now
      }
      dropped.forEach(NodeSubscription::close);
    } catch (RuntimeException e) {
      // the commands report the outage; the next round looks again
      LOG.debug("Bulwark: looking up the Redis topology failed", e);
    }
  }

  private synchronized void subscribeOn(HostAndPort primary) {
    subscriptions.put(
        primary,
        new NodeSubscription(
            subscription(
                () -> RedisConnector.subscriptionConnection(settings, primary), () -> null)));
  }

  @Override
  public void close() {
    if (watcher != null) {
      watcher.shutdownNow();
    }
    if (single != null) {
      single.close();
    }
    List<NodeSubscription> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(subscriptions.values());
      subscriptions.clear();
    }
    all.forEach(NodeSubscription::close);
    checker.shutdownNow();
  }
}
