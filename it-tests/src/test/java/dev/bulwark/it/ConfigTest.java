package dev.bulwark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.it.config.BothKeyed;
import dev.bulwark.it.config.MethodKeyed;
import dev.bulwark.it.config.NamedKeyed;
import dev.bulwark.it.config.RateConfigured;
import dev.bulwark.it.support.Callers;
import dev.bulwark.it.support.Callers.Caller;
import dev.bulwark.it.support.Deployments;
import dev.bulwark.it.support.Room;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Limits taken from MicroProfile Config ({@code META-INF/microprofile-config.properties} in the
 * deployment, read by SmallRye Config), shown by behaviour: how many callers get in.
 */
@ExtendWith(ArquillianExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConfigTest {

  static final Duration WAIT = Duration.ofSeconds(5);

  @Deployment
  static JavaArchive deployment() {
    String methodKeyed = MethodKeyed.class.getName();
    String bothKeyed = BothKeyed.class.getName();
    return Deployments.withConfig(
        Deployments.bulwark(
            "config",
            MethodKeyed.class,
            NamedKeyed.class,
            BothKeyed.class,
            RateConfigured.class,
            Room.class),
        Deployments.config(
            methodKeyed + "/occupy/DistributedBulkhead/value",
            "2",
            "bulwark.bulkhead.it-named.value",
            "3",
            "bulwark.bulkhead.it-wait.waiting-time",
            "300ms",
            "bulwark.bulkhead.it-both.value",
            "3",
            bothKeyed + "/methodWins/DistributedBulkhead/value",
            "1",
            "bulwark.bulkhead.it-class.value",
            "3",
            bothKeyed + "/DistributedBulkhead/value",
            "4",
            "DistributedRateLimit/enabled",
            "false",
            "bulwark.rate-limit.it-rate.enabled",
            "true",
            "bulwark.rate-limit.it-rate.value",
            "2",
            "bulwark.lock.it-lock.waiting-time",
            "PT0.2S"));
  }

  @Inject MethodKeyed methodKeyed;
  @Inject NamedKeyed namedKeyed;
  @Inject BothKeyed bothKeyed;
  @Inject RateConfigured rateConfigured;

  @Test
  void anFtStyleMethodKeyChangesTheBulkheadValue() throws Exception {
    assertThat(admitted("method-key", methodKeyed::occupy, 5)).isEqualTo(2);
  }

  @Test
  void aNamedKeyChangesTheBulkheadValue() throws Exception {
    assertThat(admitted("named-key", namedKeyed::occupy, 5)).isEqualTo(3);
  }

  @Test
  void theMethodKeyBeatsTheNamedKey() throws Exception {
    assertThat(admitted("method-wins", bothKeyed::methodWins, 5)).isEqualTo(1);
  }

  @Test
  void theClassKeyBeatsTheNamedKey() throws Exception {
    assertThat(admitted("class-wins", bothKeyed::classWins, 5)).isEqualTo(4);
  }

  @Test
  void aNamedWaitingTimeMakesCallersWait() throws Exception {
    Room room = new Room("named-wait");
    try (Callers callers = new Callers("named-wait")) {
      try {
        callers.run(() -> namedKeyed.occupyWaiting(room, 0));
        room.awaitEntered(1, WAIT);
        Caller<Void> waiter = callers.run(() -> namedKeyed.occupyWaiting(room, 1));

        assertThat(waiter.failure(WAIT)).isInstanceOf(BulkheadFullException.class);
        assertThat(waiter.elapsed())
            .isGreaterThanOrEqualTo(Duration.ofMillis(290))
            .isLessThan(Duration.ofMillis(1500));
      } finally {
        room.releaseAll();
      }
      callers.awaitAll(WAIT);
    }
  }

  @Test
  void aNamedKeyChangesTheRateAndEnablesItAgainstTheGlobalKey() {
    rateConfigured.named();
    rateConfigured.named();
    assertThatThrownBy(rateConfigured::named)
        .isInstanceOf(RateLimitExceededException.class)
        .satisfies(
            e -> assertThat(((RateLimitExceededException) e).getLimitName()).isEqualTo("it-rate"));
  }

  @Test
  void theGlobalFtStyleKeyDisablesRateLimits() {
    for (int i = 0; i < 10; i++) {
      rateConfigured.globallyDisabled();
    }
  }

  @Test
  void aNamedIsoDurationSetsTheLockWaitingTime() throws Exception {
    Room room = new Room("lock-wait");
    try (Callers callers = new Callers("lock-wait")) {
      try {
        callers.run(() -> rateConfigured.locked("x", room, 0));
        room.awaitEntered(1, WAIT);
        Caller<Void> waiter = callers.run(() -> rateConfigured.locked("x", room, 1));

        assertThat(waiter.failure(WAIT)).isInstanceOf(LockTimeoutException.class);
        assertThat(waiter.elapsed())
            .isGreaterThanOrEqualTo(Duration.ofMillis(190))
            .isLessThan(Duration.ofMillis(1500));
      } finally {
        room.releaseAll();
      }
      callers.awaitAll(WAIT);
    }
  }

  /**
   * Starts {@code attempts} fail-fast callers one after the other, each once the previous one is
   * either inside or rejected, and returns how many got in. Every other caller must have been
   * rejected with {@link BulkheadFullException}.
   */
  private static int admitted(String name, BiConsumer<Room, Integer> call, int attempts) {
    Room room = new Room(name);
    List<Caller<Void>> rejected = new ArrayList<>();
    try (Callers callers = new Callers(name)) {
      try {
        for (int id = 0; id < attempts; id++) {
          int caller = id;
          int before = room.entered();
          Caller<Void> started =
              callers.run(
                  () -> {
                    call.accept(room, caller);
                  });
          long deadline = System.nanoTime() + WAIT.toNanos();
          while (room.entered() == before && !started.isDone()) {
            if (System.nanoTime() > deadline) {
              throw new AssertionError(name + ": caller " + id + " neither entered nor ended");
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
          }
          if (room.entered() == before) {
            rejected.add(started);
          }
        }
        for (Caller<Void> caller : rejected) {
          assertThat(caller.failure(WAIT)).isInstanceOf(BulkheadFullException.class);
        }
        assertThat(room.entered() + rejected.size()).isEqualTo(attempts);
      } finally {
        room.releaseAll();
      }
      callers.awaitAll(WAIT);
    }
    assertThat(room.maxInside()).isEqualTo(room.entered());
    return room.entered();
  }
}
