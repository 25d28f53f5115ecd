package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
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

  @ApplicationScoped
  public static class Later {
    @Asynchronous
    @Bulkhead(3)
    public CompletionStage<String> run() {
      return CompletableFuture.completedFuture("ran");
    }
  }

  @Test
  void aDistributedKeyThatIsNotABooleanFailsTheDeploymentNamingTheKey() {
    try (Containers.Config config =
        Containers.config().set(Reports.class.getName() + "/run/Bulkhead/distributed", "yes")) {
      assertThatThrownBy(() -> Containers.boot(Reports.class).close())
          .hasStackTraceContaining(
              "Invalid @Bulkhead on "
                  + Reports.class.getName()
                  + "#run: config key '"
                  + Reports.class.getName()
                  + "/run/Bulkhead/distributed' = 'yes' is not true or false");
    }
  }

  @Test
  void aValueThatIsNotANumberFailsTheDeploymentNamingTheKey() {
    try (Containers.Config config =
        Containers.config()
            .set("bulwark.fault-tolerance.bulkhead.distributed", "true")
            .set(Reports.class.getName() + "/Bulkhead/value", "ten")) {
      assertThatThrownBy(() -> Containers.boot(Reports.class).close())
          .hasStackTraceContaining(
              "config key '" + Reports.class.getName() + "/Bulkhead/value' = 'ten'");
    }
  }

  /**
   * Bulwark's bulkhead gives its permit back when the method returns; a stage still running then
   * would run outside the cluster-wide cap.
   */
  @Test
  void aMethodReturningACompletionStageIsRefused() {
    try (Containers.Config config =
        Containers.config().set("bulwark.fault-tolerance.bulkhead.distributed", "true")) {
      assertThatThrownBy(() -> Containers.boot(Later.class).close())
          .hasStackTraceContaining(
              "Cannot make @Bulkhead on " + Later.class.getName() + "#run cluster-wide")
          .hasStackTraceContaining(Later.class.getName() + "/run/Bulkhead/distributed=false");
    }
  }
}
