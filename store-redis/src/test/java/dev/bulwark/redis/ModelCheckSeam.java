package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import redis.clients.jedis.RedisClient;

/**
 * What the model check ({@code dev.bulwark.redis.modelcheck}) needs of this package, whose store
 * classes are package-private: a key prefix of its own on the test server, the store's scripts run
 * unchanged but for two swaps, and "JVMs" built from the store's own permit, lock and renewal
 * classes ({@link ModelCheckJvm}).
 *
 * <p>The swaps: the clock is a key the check sets ({@link ControlledClock}), and a wake-up that a
 * script would PUBLISH is appended to a list instead, which the check drains after every step. A
 * published message reaches a subscriber at some later time or never; the list makes each one an
 * event the check can deliver late, or drop.
 */
public final class ModelCheckSeam implements AutoCloseable {

  /**
   * Lost replies trip the store's outage log (the client's, and the outage gate it reports to);
   * expected here, and noisy at thousands a run.
   */
  private static final List<Logger> OUTAGE_LOGS =
      List.of(
          Logger.getLogger("dev.bulwark.redis.client"),
          Logger.getLogger("dev.bulwark.core.outage"));

  private static final String PUBLISH = "redis.call('PUBLISH', ";

  private final TestRedis test;
  private final ControlledClock clock;
  private final String wakeUps;
  private final List<Level> outageLogLevels;

  /** A wake-up as a script sent it: the JVM's channel, and the notice naming the request. */
  public record WakeUp(String channel, String notice) {}

  public ModelCheckSeam() {
    this.test = new TestRedis(TestRedisServer.url(), Duration.ofSeconds(30));
    this.wakeUps = test.prefix() + "model:wake-ups";
    this.clock = new ControlledClock(test, this::publishToList);
    this.outageLogLevels = OUTAGE_LOGS.stream().map(Logger::getLevel).toList();
    OUTAGE_LOGS.forEach(log -> log.setLevel(Level.OFF));
  }

  private String publishToList(String script) {
    if (!script.contains(PUBLISH)) {
      return script;
    }
    String swapped = script.replace(PUBLISH, "redis.call('RPUSH', '" + wakeUps + "', ");
    assertThat(swapped).doesNotContain(PUBLISH);
    return swapped;
  }

  /** A plain client on the server, to read and rewrite the keys under {@link #prefix()}. */
  public RedisClient redis() {
    return test.redis();
  }

  public String prefix() {
    return test.prefix();
  }

  /** Holders, queue, waiters and (unused by bulkheads) state of the bulkhead {@code name}. */
  public List<String> bulkheadKeys(String name) {
    RedisKeys.BulkheadKeys keys = test.keys().bulkhead(name);
    return List.of(keys.holders(), keys.queue(), keys.waiters(), keys.state());
  }

  /** Readers, queue, waiters and state of the lock key {@code key} of lock {@code name}. */
  public List<String> lockKeys(String name, String key) {
    RedisKeys.LockKeys keys = test.keys().lock(name, key);
    return List.of(keys.readers(), keys.queue(), keys.waiters(), keys.state());
  }

  /** The list the scripts' wake-ups go to: channel, notice, channel, notice, ... */
  public String wakeUpList() {
    return wakeUps;
  }

  /** The key the scripts read their clock from, in microseconds. */
  public String clockKey() {
    return test.prefix() + "clock";
  }

  public void setClockMillis(long millis) {
    clock.set(millis * 1000);
  }

  public long clockMillis() {
    return clock.micros() / 1000;
  }

  /** One JVM of the store, its instance id 16 hex digits. */
  public ModelCheckJvm jvm(String instance) {
    return new ModelCheckJvm(test, clock, instance);
  }

  /** The channel a JVM's wake-ups are published to. */
  public String wakeUpChannel(String instance) {
    return test.keys().wakeUpChannel(instance);
  }

  /** Drains the wake-ups the scripts sent since the last drain, in order. */
  public List<WakeUp> drainWakeUps() {
    List<String> sent = test.redis().lrange(wakeUps, 0, -1);
    test.redis().del(wakeUps);
    List<WakeUp> drained = new ArrayList<>();
    for (int i = 0; i + 1 < sent.size(); i += 2) {
      drained.add(new WakeUp(sent.get(i), sent.get(i + 1)));
    }
    return drained;
  }

  @Override
  public void close() {
    for (int i = 0; i < OUTAGE_LOGS.size(); i++) {
      OUTAGE_LOGS.get(i).setLevel(outageLogLevels.get(i));
    }
    test.cleanUp();
  }
}
