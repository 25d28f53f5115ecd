package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.junit.jupiter.api.Test;

/** A bulkhead the bridge cannot make cluster-wide fails the deployment, naming method and key. */
class UnmappableTest {

  @ApplicationScoped
  public static class Reports {
    @Bulkhead(3)
    public String run() {
      return "ran";
    }
  }

  /** A stage type of its own, which Bulwark's interceptor reads as a synchronous result. */
  public static class OwnFuture<T> extends CompletableFuture<T> {}

  @ApplicationScoped
  public static class Later {
    @Bulkhead(3)
    public OwnFuture<String> run() {
      OwnFuture<String> result = new OwnFuture<>();
      result.complete("ran");
      return result;
    }
  }

  @Test
  void aDistributedKeyThatIsNotABooleanFailsTheDeploymentNamingTheKey() {
    try (Containers.Config config =
        Containers.config().set(Reports.class.getName() + "/run/Bulkhead/distributed", "maybe")) {
      assertThatThrownBy(() -> Containers.boot(Reports.class).close())
          .hasStackTraceContaining(
              "Invalid @Bulkhead on "
                  + Reports.class.getName()
                  + "#run: config key '"
                  + Reports.class.getName()
                  + "/run/Bulkhead/distributed' = 'maybe' is not true or false");
    }
  }

  @Test
  void aValueThatIsNotANumberFailsTheDeploymentNamingTheKey() {
    try (Containers.Config config =
        Containers.config()
            .set("bulwark.fault-tolerance.bulkhead.distributed", "true")
            .set(Reports.class.getName() + "/run/Bulkhead/value", "ten")) {
      assertThatThrownBy(() -> Containers.boot(Reports.class).close())
          // SmallRye FT, which reads the key too, may be the one to report it first
          .hasStackTraceContaining(Reports.class.getName() + "/run/Bulkhead/value")
          .hasStackTraceContaining("ten");
    }
  }

  /**
   * Bulwark holds a permit until completion for {@code CompletionStage}, {@code CompletableFuture}
   * and {@code Uni} only; for another stage type the permit would come back while its work runs.
   */
  @Test
  void aMethodReturningAStageTypeBulwarkCannotHoldIsRefused() {
    try (Containers.Config config =
        Containers.config().set("bulwark.fault-tolerance.bulkhead.distributed", "true")) {
      assertThatThrownBy(() -> Containers.boot(Later.class).close())
          .hasStackTraceContaining(
              "Cannot make @Bulkhead on "
                  + Later.class.getName()
                  + "#run cluster-wide: it returns "
                  + OwnFuture.class.getName())
          .hasStackTraceContaining(Later.class.getName() + "/run/Bulkhead/distributed=false");
    }
  }
}
