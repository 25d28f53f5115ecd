package dev.bulwark.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.Bulwark;
import dev.bulwark.LockContext;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.Permit;
import dev.bulwark.RateLimitExceededException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code @Inject Bulwark}: limits by name, configured by the named keys. */
class ProgrammaticApiTest {

  @Test
  void namedLimitsThroughTheInjectedApi() {
    WeldContainers.withContainer(
        Map.of(
            "bulwark.bulkhead.jobs.value", "1",
            "bulwark.rate-limit.mails.value", "2",
            "bulwark.rate-limit.mails.window", "1h",
            "bulwark.lock.ledger.waiting-time", "0"),
        container -> {
          Bulwark bulwark = container.select(Bulwark.class).get();

          Permit job = bulwark.bulkhead("jobs").acquire();
          assertThat(bulwark.bulkhead("jobs").tryAcquire()).isEmpty();
          assertThatThrownBy(() -> bulwark.bulkhead("jobs").call(() -> "never"))
              .isInstanceOf(BulkheadFullException.class);
          job.close();
          assertThat(call(() -> bulwark.bulkhead("jobs").call(() -> "ran"))).isEqualTo("ran");

          assertThat(bulwark.rateLimiter("mails").tryAcquire()).isTrue();
          bulwark.rateLimiter("mails").acquire();
          assertThatThrownBy(() -> bulwark.rateLimiter("mails").acquire())
              .isInstanceOf(RateLimitExceededException.class)
              .satisfies(
                  e ->
                      assertThat(((RateLimitExceededException) e).getRetryAfter())
                          .isGreaterThan(Duration.ofMinutes(29)));

          long token =
              call(
                  () ->
                      bulwark
                          .lock("ledger")
                          .call("2026", LockMode.WRITE, LockContext::fencingToken));
          assertThat(token).isPositive();
          try (LockPermit read = bulwark.lock("ledger").lock("2026", LockMode.READ)) {
            assertThat(read.fencingToken()).isGreaterThanOrEqualTo(token);
            Optional<LockPermit> other =
                call(
                    () ->
                        onOtherThread(
                            () -> bulwark.lock("ledger").tryLock("2026", LockMode.WRITE)));
            assertThat(other).isEmpty();
          }
          return null;
        });
  }

  private static <T> T onOtherThread(Callable<T> work) throws Exception {
    FutureTask<T> task = new FutureTask<>(work);
    new Thread(task).start();
    return task.get(5, TimeUnit.SECONDS);
  }

  private static <T> T call(Callable<T> work) {
    try {
      return work.call();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
