package dev.bulwark.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.Bulwark;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.event.Granted;
import dev.bulwark.event.LimitType;
import dev.bulwark.event.Rejected;
import dev.bulwark.event.RejectionReason;
import dev.bulwark.event.Released;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Bulwark's events reach the application's observers, synchronous and asynchronous. */
class CdiEventsTest {

  @ApplicationScoped
  public static class Slow {
    @DistributedBulkhead(
        name = "observed",
        value = 1,
        waitingTime = 2,
        waitingTimeUnit = java.time.temporal.ChronoUnit.SECONDS)
    public void hold(CountDownLatch entered, CountDownLatch leave) throws InterruptedException {
      entered.countDown();
      assertThat(leave.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @DistributedBulkhead(name = "observed", value = 1)
    public void failFast() {}
  }

  @ApplicationScoped
  public static class Observer {
    private final List<Object> sync = new CopyOnWriteArrayList<>();
    private final List<Object> async = new CopyOnWriteArrayList<>();
    private final CountDownLatch asyncReleases = new CountDownLatch(2);

    List<Object> sync() {
      return sync;
    }

    List<Object> async() {
      return async;
    }

    CountDownLatch asyncReleases() {
      return asyncReleases;
    }

    void granted(@Observes Granted event) {
      sync.add(event);
    }

    void rejected(@Observes Rejected event) {
      sync.add(event);
    }

    void released(@Observes Released event) {
      sync.add(event);
    }

    void releasedLater(@ObservesAsync Released event) {
      async.add(event);
      asyncReleases.countDown();
    }
  }

  @Test
  void grantsRejectionsAndReleasesAreObservedWithTheTimeWaitedAndHeld() {
    WeldContainers.withContainer(
        Map.of(),
        container -> {
          Slow slow = container.select(Slow.class).get();
          Observer observer = container.select(Observer.class).get();
          CountDownLatch firstIn = new CountDownLatch(1);
          CountDownLatch firstOut = new CountDownLatch(1);
          Thread first = start(() -> slow.hold(firstIn, firstOut));
          await(firstIn);
          assertThatThrownBy(slow::failFast).isInstanceOf(BulkheadFullException.class);

          CountDownLatch secondIn = new CountDownLatch(1);
          Thread second = start(() -> slow.hold(secondIn, new CountDownLatch(0)));
          // the second caller's wait begins before it is queued, so it is at least what passes
          // from the moment it is seen queued until the first leaves, 300 ms from then
          BulkheadHandle observed = container.select(Bulwark.class).get().bulkhead("observed");
          Awaitility.await("the second caller queued")
              .atMost(Duration.ofSeconds(10))
              .until(() -> observed.inspect().queued() == 1);
          long queuedAt = System.nanoTime();
          sleepAtLeast(Duration.ofMillis(300));
          firstOut.countDown();
          await(secondIn);
          long waitedAtLeast = System.nanoTime() - queuedAt;
          join(first);
          join(second);
          await(observer.asyncReleases());

          // the first call's release hands the permit over, so the second's grant and the
          // first's release event race: check each caller's events, not their interleaving
          List<Object> events = observer.sync();
          assertThat(events).hasSize(5);
          assertThat(events.get(0)).isInstanceOf(Granted.class);
          Rejected rejected = (Rejected) events.get(1);
          assertThat(rejected.type()).isEqualTo(LimitType.BULKHEAD);
          assertThat(rejected.name()).isEqualTo("observed");
          assertThat(rejected.reason()).isEqualTo(RejectionReason.FULL);
          List<Released> released = ofType(events, Released.class);
          List<Granted> granted = ofType(events, Granted.class);
          assertThat(released).hasSize(2);
          assertThat(granted).hasSize(2);
          assertThat(released)
              .as("the first call held its permit while the second waited")
              .anySatisfy(r -> assertThat(r.held()).isGreaterThanOrEqualTo(Duration.ofMillis(300)));
          assertThat(granted.get(0).waited()).isLessThan(Duration.ofMillis(300));
          assertThat(granted.get(1).waited())
              .as("the queued caller's wait")
              .isGreaterThanOrEqualTo(Duration.ofMillis(300))
              .isLessThanOrEqualTo(Duration.ofNanos(waitedAtLeast).plusSeconds(1));
          assertThat(observer.async()).hasSize(2).allMatch(Released.class::isInstance);
          return null;
        },
        Slow.class,
        Observer.class);
  }

  /** A listener bean: registered with the engine like one found through ServiceLoader. */
  @ApplicationScoped
  public static class CountingListener implements dev.bulwark.event.BulwarkListener {
    private final List<dev.bulwark.event.BulwarkEvent> heard = new CopyOnWriteArrayList<>();

    @Override
    public void on(dev.bulwark.event.BulwarkEvent event) {
      heard.add(event);
    }

    List<dev.bulwark.event.BulwarkEvent> heard() {
      return heard;
    }
  }

  @Test
  void aListenerBeanHearsEveryEvent() {
    WeldContainers.withContainer(
        Map.of(),
        container -> {
          container.select(Slow.class).get().failFast();
          assertThat(container.select(CountingListener.class).get().heard())
              .extracting(Object::getClass)
              .containsExactly(Granted.class, Released.class);
          return null;
        },
        Slow.class,
        CountingListener.class);
  }

  @Test
  void withoutObserversNothingIsForwarded() {
    WeldContainers.withContainer(
        Map.of(),
        container -> {
          assertThat(CdiEvents.forObservers(container.getBeanManager())).isEmpty();
          return null;
        },
        Slow.class);
  }

  private static <T> List<T> ofType(List<Object> events, Class<T> type) {
    return events.stream().filter(type::isInstance).map(type::cast).toList();
  }

  interface Work {
    void run() throws Exception;
  }

  private static Thread start(Work work) {
    Thread thread =
        new Thread(
            () -> {
              try {
                work.run();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    thread.start();
    return thread;
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).as("within 10 s").isTrue();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void join(Thread thread) {
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    assertThat(thread.isAlive()).isFalse();
  }

  private static void sleepAtLeast(Duration duration) {
    long until = System.nanoTime() + duration.toNanos();
    while (System.nanoTime() < until) {
      try {
        TimeUnit.NANOSECONDS.sleep(until - System.nanoTime());
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
