package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.redis.client.RedisSettings;
import dev.bulwark.spi.GrantListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import redis.clients.jedis.UnifiedJedis;

/**
 * A store opened as the engine opens it, with a listener that records every hand-over it is told
 * of, so a test can assert which waiter of which "JVM" was woken.
 */
final class RecordingStore implements AutoCloseable {

  /** A request id no test uses: marks the end of what was published before it. */
  private static final long MARKER = -1;

  /** A hand-over as the listener heard it. */
  record Wake(long requestId, long token) {}

  private final RedisStore store;
  private final BlockingQueue<Wake> wakes;

  private RecordingStore(RedisStore store, BlockingQueue<Wake> wakes, AtomicInteger changes) {
    this.store = store;
    this.wakes = wakes;
    this.wakeUpChanges = changes;
  }

  /** How many times the store said its wake-up epoch changed. */
  final AtomicInteger wakeUpChanges;

  static RecordingStore open(RedisSettings settings) {
    BlockingQueue<Wake> wakes = new LinkedBlockingQueue<>();
    AtomicInteger changes = new AtomicInteger();
    RedisStore store =
        RedisStore.open(
            settings,
            new GrantListener() {
              @Override
              public void granted(long requestId, long token) {
                wakes.add(new Wake(requestId, token));
              }

              @Override
              public void wakeUpsChanged() {
                changes.incrementAndGet();
              }
            });
    return new RecordingStore(store, wakes, changes);
  }

  RedisStore store() {
    return store;
  }

  String instance() {
    return store.instance();
  }

  @Override
  public void close() {
    store.close();
  }

  /** The member a request of this store has in Redis. */
  String member(long requestId) {
    return store.instance() + ":" + requestId;
  }

  String wakeUpChannel() {
    return store.settings().keyPrefix() + "wake:" + store.instance();
  }

  /**
   * Every wake-up this store received until now, in order, and only those: a marker published to
   * its channel after the operations under test arrives after everything they published (Redis
   * delivers one channel's messages to a subscriber in order), so no timing guess is involved.
   */
  List<Wake> wakesSoFar(UnifiedJedis publisher) {
    publisher.publish(wakeUpChannel(), store.wakeUpNotice(MARKER, 0));
    List<Wake> received = new ArrayList<>();
    while (true) {
      Wake wake;
      try {
        wake = wakes.poll(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      assertThat(wake).as("wake-up marker on " + wakeUpChannel()).isNotNull();
      if (wake.requestId() == MARKER) {
        return received;
      }
      received.add(wake);
    }
  }
}
