package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * MicroProfile FT's switches applied to Bulwark's bindings: {@code
 * MP_Fault_Tolerance_NonFallback_Enabled=false} makes every one a pass-through, as it does FT's own
 * policies, and {@code <annotation>/enabled} keys at method, class and global level override it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FaultToleranceSwitchesTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  @ApplicationScoped
  public static class Guarded {
    @DistributedBulkhead(1)
    public String bulkhead(Gate gate) {
      gate.pass();
      return "ran";
    }

    @DistributedRateLimit(value = 1, window = 1, windowUnit = ChronoUnit.MINUTES)
    public String rate() {
      return "ran";
    }

    @DistributedLock(waitingTime = 0)
    public String lock(Gate gate) {
      gate.pass();
      return "ran";
    }
  }

  /** A MicroProfile FT bulkhead chosen to be cluster-wide. */
  @ApplicationScoped
  public static class Mapped {
    @Bulkhead(1)
    public String run(Gate gate) {
      gate.pass();
      return "ran";
    }
  }

  /** Re-enabled by its method key. */
  @ApplicationScoped
  public static class ByMethod {
    @DistributedBulkhead(1)
    public String run(Gate gate) {
      gate.pass();
      return "ran";
    }
  }

  /** Re-enabled by its class key. */
  @ApplicationScoped
  public static class ByClass {
    @DistributedBulkhead(1)
    public String run(Gate gate) {
      gate.pass();
      return "ran";
    }
  }

  private ExecutorService callers;

  @BeforeEach
  void startCallers() {
    callers = Executors.newCachedThreadPool();
  }

  @AfterEach
  void stopCallers() throws InterruptedException {
    callers.shutdownNow();
    assertThat(callers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void nonFallbackDisabledMakesEveryBulwarkBindingAPassThrough() throws Exception {
    try (Containers.Config config =
            Containers.config()
                .set("MP_Fault_Tolerance_NonFallback_Enabled", "false")
                .set("bulwark.fault-tolerance.bulkhead.distributed", "true");
        WeldContainer container = Containers.boot(Guarded.class, Mapped.class)) {
      Guarded guarded = container.select(Guarded.class).get();
      Mapped mapped = container.select(Mapped.class).get();

      assertThat(twoInsideAtOnce(guarded::bulkhead)).containsExactly("ran", "ran");
      assertThat(twoInsideAtOnce(guarded::lock)).containsExactly("ran", "ran");
      assertThat(List.of(guarded.rate(), guarded.rate())).containsExactly("ran", "ran");
      // neither SmallRye's per-JVM bulkhead nor a cluster-wide one
      assertThat(twoInsideAtOnce(mapped::run)).containsExactly("ran", "ran");
      assertThat(MappedDefinitions.of(container))
          .doesNotContainKey(Mapped.class.getName() + "#run(" + Gate.class.getName() + ")");
    }
  }

  @Test
  void enabledKeysAtEveryLevelOverrideTheSwitch() throws Exception {
    try (Containers.Config config =
            Containers.config()
                .set("MP_Fault_Tolerance_NonFallback_Enabled", "false")
                .set(ByMethod.class.getName() + "/run/DistributedBulkhead/enabled", "true")
                .set(ByClass.class.getName() + "/DistributedBulkhead/enabled", "true")
                .set("DistributedRateLimit/enabled", "true");
        WeldContainer container = Containers.boot(Guarded.class, ByMethod.class, ByClass.class)) {
      ByMethod byMethod = container.select(ByMethod.class).get();
      ByClass byClass = container.select(ByClass.class).get();
      Guarded guarded = container.select(Guarded.class).get();

      assertSecondRejected(byMethod::run);
      assertSecondRejected(byClass::run);
      assertThat(guarded.rate()).isEqualTo("ran");
      assertThatThrownBy(guarded::rate).isInstanceOf(dev.bulwark.RateLimitExceededException.class);
      // the bulkhead of Guarded has no key of its own: the switch still turns it off
      assertThat(twoInsideAtOnce(guarded::bulkhead)).containsExactly("ran", "ran");
    }
  }

  @Test
  void enabledKeysTurnSingleBindingsOffWithoutTheSwitch() throws Exception {
    try (Containers.Config config =
            Containers.config()
                .set(ByMethod.class.getName() + "/run/DistributedBulkhead/enabled", "false")
                .set(ByClass.class.getName() + "/DistributedBulkhead/enabled", "false")
                .set("DistributedLock/enabled", "false");
        WeldContainer container = Containers.boot(Guarded.class, ByMethod.class, ByClass.class)) {
      assertThat(twoInsideAtOnce(container.select(ByMethod.class).get()::run))
          .containsExactly("ran", "ran");
      assertThat(twoInsideAtOnce(container.select(ByClass.class).get()::run))
          .containsExactly("ran", "ran");
      Guarded guarded = container.select(Guarded.class).get();
      assertThat(twoInsideAtOnce(guarded::lock)).containsExactly("ran", "ran");
      assertSecondRejected(guarded::bulkhead);
    }
  }

  /** Two calls that stay inside together: both must get in for this to return. */
  private List<String> twoInsideAtOnce(Function<Gate, String> call) throws Exception {
    Gate gate = new Gate();
    List<Future<String>> calls = new ArrayList<>();
    calls.add(callers.submit(() -> call.apply(gate)));
    calls.add(callers.submit(() -> call.apply(gate)));
    try {
      gate.awaitInside(2, WAIT);
    } finally {
      gate.open();
    }
    List<String> results = new ArrayList<>();
    for (Future<String> c : calls) {
      results.add(c.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
    }
    return results;
  }

  private void assertSecondRejected(Function<Gate, String> call) throws Exception {
    Gate gate = new Gate();
    Future<String> first = callers.submit(() -> call.apply(gate));
    try {
      gate.awaitInside(1, WAIT);
      assertThatThrownBy(() -> call.apply(Gate.opened())).isInstanceOf(BulkheadFullException.class);
    } finally {
      gate.open();
    }
    assertThat(first.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("ran");
  }
}
