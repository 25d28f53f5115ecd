package dev.bulwark.redis.client;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPubSub;

/**
 * This JVM's one subscription to its wake-up channel: a script that hands a permit or lock to a
 * queued request of this JVM publishes a signed notice there ({@link WakeUpNotices}), which wakes
 * exactly that waiter. When the connection drops, it subscribes again after the reconnect interval;
 * meanwhile waiters fall back to their bounded poll.
 *
 * <p>A subscription reads without a timeout (it may hear nothing for hours), so a connection whose
 * network path died without a reset (half-open) would look subscribed forever while no wake-up
 * arrives. So the subscription is PINGed once per check interval; when the SUBSCRIBE or a PING is
 * not answered within the answer deadline, its connection is closed, it counts as lost (readiness
 * shows it) and it subscribes again.
 */
public final class WakeUpSubscription implements AutoCloseable {

  private static final BulwarkLog LOG = BulwarkLog.of(WakeUpSubscription.class);

  private final Supplier<Connection> connections;
  private final Supplier<HostAndPort> currentNode;
  private final String channel;
  private final WakeUpNotices notices;

  /** Told when this subscription is made, and when one that was made ends. */
  private final Runnable changed;

  private final long reconnectMillis;
  private final Thread thread;
  private final CountDownLatch firstSubscribed = new CountDownLatch(1);
  private volatile boolean closed;
  private volatile Listener current;
  private volatile HostAndPort subscribedTo;
  private volatile boolean moving;
  private final long answerDeadlineNanos;
  private final ScheduledFuture<?> checks;

  /**
   * @param connections a new connection to subscribe on (to the master, for Sentinel)
   * @param currentNode where commands go now (the master Sentinel names), so the subscription can
   *     tell when it sits on a node that is no longer the master; null when there is no such node
   * @param checker runs the liveness checks, once per {@code checkInterval}
   * @param answerDeadline how long a SUBSCRIBE or PING may go unanswered before the connection
   *     counts as dead
   */
  WakeUpSubscription(
      Supplier<Connection> connections,
      Supplier<HostAndPort> currentNode,
      String channel,
      WakeUpNotices notices,
      Runnable changed,
      Duration reconnectInterval,
      ScheduledExecutorService checker,
      Duration checkInterval,
      Duration answerDeadline) {
    this.connections = connections;
    this.currentNode = currentNode;
    this.channel = channel;
    this.notices = notices;
    this.changed = changed;
    this.reconnectMillis = reconnectInterval.toMillis();
    this.answerDeadlineNanos = answerDeadline.toNanos();
    this.thread = new Thread(this::subscribeUntilClosed, "bulwark-redis-wake-ups");
    thread.setDaemon(true);
    thread.start();
    long period = Math.max(1, checkInterval.toMillis());
    this.checks =
        checker.scheduleWithFixedDelay(this::checkAnswers, period, period, TimeUnit.MILLISECONDS);
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
    LOG.info(LogMessage.REDIS_SUBSCRIPTION_MOVES, on, now);
    moving = true;
    try {
      active.unsubscribe();
    } catch (RuntimeException e) {
      LOG.debug("Bulwark: unsubscribing the wake-up channel failed", e);
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
        try (Connection connection = connections.get()) {
          subscriber.awaitingSince = System.nanoTime();
          subscriber.connection = connection;
          if (!closed) {
            subscriber.proceed(connection, channel);
          }
        }
      } catch (RuntimeException e) {
        if (!closed && !warned) {
          LOG.warn(
              subscriber.unanswered
                  ? LogMessage.REDIS_SUBSCRIPTION_SILENT
                  : LogMessage.REDIS_SUBSCRIPTION_LOST,
              e);
          warned = true;
        }
      }
      // a listener whose connection broke still counts its channel: it no longer answers for
      // isSubscribed, so readiness shows the loss at once, not after the reconnect interval
      current = null;
      if (subscriber.everSubscribed) {
        warned = false;
        changed.run(); // notices published since it broke went nowhere
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

  /**
   * Once per check interval: a connection that left its SUBSCRIBE or last PING unanswered past the
   * deadline is closed (its reading thread then fails and subscribes again); otherwise a new PING
   * goes out.
   */
  private void checkAnswers() {
    Listener active = current;
    Connection connection = active == null ? null : active.connection;
    if (connection == null || closed) {
      return;
    }
    long now = System.nanoTime();
    long awaitingSince = active.awaitingSince;
    if (awaitingSince != 0) {
      if (now - awaitingSince > answerDeadlineNanos) {
        active.unanswered = true;
        try {
          connection.forceDisconnect();
        } catch (IOException | RuntimeException e) {
          LOG.debug("Bulwark: closing a silent wake-up connection failed", e);
        }
      }
      return;
    }
    if (active.isSubscribed()) {
      active.awaitingSince = now;
      try {
        active.ping();
      } catch (RuntimeException e) {
        // the reading thread sees the broken connection too, and subscribes again
        LOG.debug("Bulwark: a PING on the wake-up subscription failed", e);
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    checks.cancel(false);
    Listener active = current;
    if (active != null && active.isSubscribed()) {
      try {
        active.unsubscribe();
      } catch (RuntimeException e) {
        LOG.debug("Bulwark: unsubscribing the wake-up channel failed", e);
      }
    }
    thread.interrupt();
  }

  private final class Listener extends JedisPubSub {
    volatile boolean everSubscribed;
    volatile Connection connection;

    /** When the SUBSCRIBE or PING now unanswered was sent ({@code System.nanoTime()}); 0: none. */
    volatile long awaitingSince;

    /** Whether its connection was closed for want of an answer. */
    volatile boolean unanswered;

    @Override
    public void onSubscribe(String subscribedChannel, int subscribedChannels) {
      awaitingSince = 0;
      everSubscribed = true;
      firstSubscribed.countDown();
      changed.run();
    }

    @Override
    public void onPong(String pattern) {
      awaitingSince = 0;
    }

    @Override
    public void onMessage(String messageChannel, String message) {
      notices.accept(message);
    }
  }
}
