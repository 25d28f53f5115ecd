package dev.bulwark.redis.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.UnifiedJedis;

/**
 * This JVM's wake-up channel. On one server (or behind Sentinel) that is one subscription. On a
 * Cluster, a script publishes on the node of the limit's keys and Redis relays the message to the
 * other nodes over the cluster bus, one more hop and a late one on a busy node; so the JVM
 * subscribes on every primary and hears each hand-over first from the node that made it. The copies
 * that follow change nothing: a signal is idempotent and a request id is never reused.
 */
public final class WakeUpChannel implements AutoCloseable {

  private final List<WakeUpSubscription> subscriptions = new ArrayList<>();
  private final List<UnifiedJedis> nodeClients = new ArrayList<>();

  public WakeUpChannel(
      RedisSettings settings, RedisConnection connection, String channel, WakeUpNotices notices) {
    List<HostAndPort> primaries = connection.primaryNodes();
    if (primaries.isEmpty()) {
      subscriptions.add(
          new WakeUpSubscription(
              connection.client(), channel, notices, settings.reconnectInterval()));
      return;
    }
    for (HostAndPort primary : primaries) {
      UnifiedJedis node = RedisConnector.openNode(settings, primary);
      nodeClients.add(node);
      subscriptions.add(
          new WakeUpSubscription(node, channel, notices, settings.reconnectInterval()));
    }
  }

  /** Waits until every subscription is active, so early waiters need not poll. */
  public boolean awaitSubscribed(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (WakeUpSubscription subscription : subscriptions) {
      long left = deadline - System.nanoTime();
      if (!subscription.awaitSubscribed(Duration.ofNanos(Math.max(0, left)))) {
        return false;
      }
    }
    return true;
  }

  public boolean isSubscribed() {
    return subscriptions.stream().allMatch(WakeUpSubscription::isSubscribed);
  }

  @Override
  public void close() {
    subscriptions.forEach(WakeUpSubscription::close);
    nodeClients.forEach(UnifiedJedis::close);
  }
}
