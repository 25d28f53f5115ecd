package dev.bulwark.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.Bulwark;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockContext;
import dev.bulwark.LockKey;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.Permit;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.Granted;
import dev.bulwark.event.LimitEvent;
import dev.bulwark.event.Rejected;
import dev.bulwark.event.Released;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * All three bindings on one method: the rate limit runs first, then the bulkhead, then the lock;
 * when an inner one rejects, what the outer ones took is given back (the bulkhead permit), or stays
 * spent (the rate slot: a rate limit gives nothing back).
 */
class InterceptorOrderTest {

  @ApplicationScoped
  public static class Account {
    @DistributedRateLimit(
        name = "order-rate",
        value = 3,
        window = 1,
        windowUnit = java.time.temporal.ChronoUnit.HOURS)
    @DistributedBulkhead(name = "order-bulkhead", value = 1)
    @DistributedLock(name = "order-lock", waitingTime = 0)
    public long update(@LockKey String account) {
      return LockContext.fencingToken();
    }
  }

  /** Every limit event, in the order the interceptors fired them. */
  @ApplicationScoped
  public static class Recorder {
    final List<LimitEvent> events = new ArrayList<>();

    void on(@Observes BulwarkEvent event) {
      if (event instanceof LimitEvent limitEvent) {
        synchronized (events) {
          events.add(limitEvent);
        }
      }
    }

    List<String> seen() {
      synchronized (events) {
        return events.stream().map(InterceptorOrderTest::describe).toList();
      }
    }

    void clear() {
      synchronized (events) {
        events.clear();
      }
    }
  }

  @Test
  void rateLimitThenBulkheadThenLockAndAnInnerRejectionReleasesTheOuterPermit() {
    WeldContainers.withContainer(
        Map.of(),
        container -> {
          Account account = container.select(Account.class).get();
          Recorder recorder = container.select(Recorder.class).get();
          Bulwark bulwark = container.select(Bulwark.class).get();
          BulwarkEngine engine = container.select(BulwarkRuntime.class).get().engine();

          assertThat(account.update("alice")).isPositive();
          assertThat(recorder.seen())
              .containsExactly(
                  "Granted RATE_LIMIT",
                  "Granted BULKHEAD",
                  "Granted LOCK",
                  "Released LOCK",
                  "Released BULKHEAD");

          // the lock is taken elsewhere: the innermost binding rejects, the bulkhead is given back
          recorder.clear();
          try (LockPermit held = bulwark.lock("order-lock").lock("alice", LockMode.WRITE)) {
            recorder.clear();
            assertThatThrownBy(() -> callOnAnotherThread(account))
                .isInstanceOf(LockTimeoutException.class);
          }
          assertThat(recorder.seen())
              .containsExactly(
                  "Granted RATE_LIMIT",
                  "Granted BULKHEAD",
                  "Rejected LOCK",
                  "Released BULKHEAD",
                  "Released LOCK");
          try (Permit free = bulwark.bulkhead("order-bulkhead").tryAcquire().orElseThrow()) {
            assertThat(free).as("the bulkhead permit came back").isNotNull();
          }

          // the bulkhead is full: the lock is never asked for
          recorder.clear();
          try (Permit full = bulwark.bulkhead("order-bulkhead").acquire()) {
            recorder.clear();
            assertThatThrownBy(() -> account.update("bob"))
                .isInstanceOf(BulkheadFullException.class);
          }
          assertThat(recorder.seen())
              .containsExactly("Granted RATE_LIMIT", "Rejected BULKHEAD", "Released BULKHEAD");

          // the three slots of the hour are spent, the rejected calls' too: the rate limit rejects
          // first and nothing else is asked for
          recorder.clear();
          assertThatThrownBy(() -> account.update("carol"))
              .isInstanceOf(RateLimitExceededException.class);
          assertThat(recorder.seen()).containsExactly("Rejected RATE_LIMIT");
          assertThat(engine.registry().bulkhead("order-bulkhead").stats().granted())
              .as("alice twice, then the two programmatic permits")
              .isEqualTo(4);
          return null;
        },
        Account.class,
        Recorder.class);
  }

  private static void callOnAnotherThread(Account account) throws Exception {
    Throwable[] failure = new Throwable[1];
    Thread caller =
        new Thread(
            () -> {
              try {
                account.update("alice");
              } catch (Throwable t) {
                failure[0] = t;
              }
            });
    caller.start();
    caller.join(10_000);
    assertThat(caller.isAlive()).as("the call ended").isFalse();
    if (failure[0] instanceof Exception e) {
      throw e;
    }
  }

  private static String describe(LimitEvent event) {
    String what =
        event instanceof Granted
            ? "Granted"
            : event instanceof Rejected ? "Rejected" : event instanceof Released ? "Released" : "?";
    return what + " " + event.type();
  }
}
