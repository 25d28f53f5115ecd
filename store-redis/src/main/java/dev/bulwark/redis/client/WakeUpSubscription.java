package dev.bulwark.redis.client;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;

/**
 * This JVM's one subscription to its wake-up channel: a script that hands a permit or lock to a
 * queued request of this JVM publishes a signed notice there ({@link WakeUpNotices}), which wakes
 * exactly that waiter. When the connection drops, it subscribes again after the reconnect interval;
 * meanwhile waiters fall back to their bounded poll.
 */
public final class WakeUpSubscription implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(WakeUpSubscription.class.getName());

  private final UnifiedJedis redis;
  private final Supplier<HostAndPort> currentNode;
  private final String channel;
  private final WakeUpNotices notices;
  private final long reconnectMillis;
  private final Thread thread;
  private final CountDownLatch firstSubscribed = new CountDownLatch(1);
  private volatile boolean closed;
  private volatile Listener current;
  private volatile HostAndPort subscribedTo;
  private volatile boolean moving;

  public WakeUpSubscription(
      UnifiedJedis redis, String channel, WakeUpNotices notices, Duration reconnectInterval) {
    this(redis, () -> null, channel, notices, reconnectInterval);
  }

  /**
   * @param currentNode where {@code redis} sends commands now (the master Sentinel names), so the
   *     subscription can tell when it sits on a node that is no longer the master
   */
  public WakeUpSubscription(
      UnifiedJedis redis,
      Supplier<HostAndPort> currentNode,
      String channel,
      WakeUpNotices notices,
      Duration reconnectInterval) {
    this.redis = redis;
    this.currentNode = currentNode;
    this.channel = channel;
    this.notices = notices;
    this.reconnectMillis = reconnectInterval.toMillis();
    this.thread = new Thread(this::subscribeUntilClosed, "bulwark-redis-wake-ups");
    thread.setDaemon(true);
    thread.start();
  }

  /** Waits until the first subscription is active, so early waiters need not poll. */
  public boolean awaitSubscribed(Duration timeout) throws InterruptedException {
    return firstSubscribed.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  public boolean isSubscribed() {
    Listener active = current;
    return active != null && active.isSubscribed();
  }

  /**
   * Subscribes again at once if the client now sends commands to another node than the one this
   * subscription was made on: after a Sentinel failover that demoted the old master instead of
   * ending it, the old connection would still hear wake-ups, but only relayed by replication.
   *
   * @return whether it moves
   */
  public boolean followCurrentNode() {
    HostAndPort now = currentNode.get();
    HostAndPort on = subscribedTo;
    Listener active = current;
    if (now == null || on == null || now.equals(on) || active == null || !active.isSubscribed()) {
      return false;
    }
    LOG.info(() -> "Bulwark: the wake-up subscription moves from " + on + " to " + now);
    moving = true;
    try {
      active.unsubscribe();
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "Bulwark: unsubscribing the wake-up channel failed", e);
    }
    return true;
  }

  private void subscribeUntilClosed() {
    boolean warned = false;
    while (!closed) {
      Listener subscriber = new Listener();
      current = subscriber;
      try {
        subscribedTo = currentNode.get();
        redis.subscribe(subscriber, channel);
      } catch (RuntimeException e) {
        if (!closed && !warned) {
          LOG.log(
              Level.WARNING,
              "Bulwark: lost the Redis wake-up subscription; waiters poll until it is back",
              e);
          warned = true;
        }
      }
      // a listener whose connection broke still counts its channel: it no longer answers for
      // isSubscribed, so readiness shows the loss at once, not after the reconnect interval
      current = null;
      if (subscriber.everSubscribed) {
        warned = false;
      }
      if (moving) {
        moving = false;
        continue;
      }
      if (!closed) {
        try {
          Thread.sleep(reconnectMillis);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    Listener active = current;
    if (active != null && active.isSubscribed()) {
      try {
        active.unsubscribe();
      } catch (RuntimeException e) {
        LOG.log(Level.FINE, "Bulwark: unsubscribing the wake-up channel failed", e);
      }
    }
    thread.interrupt();
  }

  private final class Listener extends JedisPubSub {
    volatile boolean everSubscribed;

    @Override
    public void onSubscribe(String subscribedChannel, int subscribedChannels) {
      everSubscribed = true;
      firstSubscribed.countDown();
    }

    @Override
    public void onMessage(String messageChannel, String message) {
      notices.accept(message);
    }
  }
}
