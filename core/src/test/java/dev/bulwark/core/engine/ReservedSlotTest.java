package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitExceededException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rate limit's call whose reserved slot lies ahead waits for it: a blocking call parks until the
 * slot starts and, interrupted, gives the slot up instead of starting early; an asynchronous one
 * completes only then. A call admitted at once never counts as one that waited. The slots here lie
 * an hour ahead, so no outcome depends on how fast the machine is.
 */
@Timeout(30)
class ReservedSlotTest {

  private final BulwarkEngine engine =
      Engines.local(
          Map.of(
              "bulwark.rate-limit.hourly.value", "1",
              "bulwark.rate-limit.hourly.window", "1h",
              "bulwark.rate-limit.hourly.waiting-time", "2h"));

  private final RateLimiter hourly = engine.registry().rateLimiter("hourly");

  @AfterEach
  void stop() {
    engine.close();
  }

  @Test
  void aCallAdmittedAtOnceDoesNotCountAsWaiting() {
    hourly.acquire();

    assertThat(hourly.stats().granted()).isEqualTo(1);
    assertThat(hourly.stats().waited()).isZero();
  }

  @Test
  void aBlockingCallParksUntilItsSlotAndAnInterruptGivesTheSlotUp() throws Exception {
    hourly.acquire();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
    Thread caller =
        new Thread(
            () -> {
              try {
                hourly.acquire();
              } catch (RuntimeException e) {
                failure.set(e);
              }
              interruptedAfter.set(Thread.currentThread().isInterrupted());
            });
    caller.start();
    while (caller.isAlive() && caller.getState() != Thread.State.TIMED_WAITING) {
      Thread.onSpinWait();
    }
    assertThat(caller.isAlive()).as("still waiting for a slot an hour ahead").isTrue();
    assertThat(hourly.stats().waited()).isEqualTo(1);

    caller.interrupt();
    caller.join();

    assertThat(failure.get())
        .isInstanceOf(RateLimitExceededException.class)
        .hasMessage("Interrupted while waiting for a reserved slot of rate limit 'hourly'");
    assertThat(interruptedAfter.get()).as("the interrupt flag is set again").isTrue();
  }

  @Test
  void anAsynchronousCallCompletesOnlyWhenItsSlotStarts() throws Exception {
    hourly.acquire();

    CompletableFuture<Void> slot = hourly.acquireAsync(TimeUnit.HOURS.toNanos(2));

    assertThat(slot).isNotDone();
    assertThat(hourly.stats().waited()).isEqualTo(1);
    slot.cancel(false);
  }
}
