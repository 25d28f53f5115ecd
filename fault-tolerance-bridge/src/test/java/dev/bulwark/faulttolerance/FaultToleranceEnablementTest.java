package dev.bulwark.faulttolerance;

import static dev.bulwark.faulttolerance.FaultToleranceOracle.method;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.core.config.LimitDefinition;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.OptionalInt;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A mapped bulkhead is on exactly when MicroProfile FT applies its own: FT's switches, in FT's
 * order and read as FT reads them, decide it, and Bulwark's reading of them must agree with the
 * container's SmallRye FT in every case.
 */
class FaultToleranceEnablementTest {

  @ApplicationScoped
  public static class Guarded {
    @Bulkhead(2)
    public String run() {
      return "ran";
    }
  }

  static java.util.stream.Stream<Arguments> switches() {
    return java.util.stream.Stream.of(
        // everything off but bulkheads, the spec's own example
        Arguments.of(
            Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "false", "Bulkhead/enabled", "true"),
            true),
        Arguments.of(Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "false"), false),
        // MicroProfile Config's booleans
        Arguments.of(Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "yes"), true),
        Arguments.of(Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "1"), true),
        Arguments.of(Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "0"), false),
        // SmallRye's switch for all of FT (Quarkus: quarkus.fault-tolerance.enabled)
        Arguments.of(Map.of("smallrye.faulttolerance.enabled", "false"), false),
        Arguments.of(
            Map.of(
                "smallrye.faulttolerance.enabled",
                "false",
                Guarded.class.getName() + "/run/Bulkhead/enabled",
                "true"),
            true),
        Arguments.of(Map.of("smallrye.faulttolerance.global.bulkhead.enabled", "false"), false),
        Arguments.of(Map.of(Guarded.class.getName() + "/Bulkhead/enabled", "false"), false));
  }

  @ParameterizedTest
  @MethodSource("switches")
  void aMappedBulkheadIsOnExactlyWhenFaultToleranceAppliesItsOwn(
      Map<String, String> switches, boolean on) {
    try (Containers.Config config =
        Containers.config().set("bulwark.fault-tolerance.bulkhead.distributed", "true")) {
      switches.forEach(config::set);
      WeldContainer container = Containers.boot(Guarded.class);
      try {
        FaultToleranceOracle ft = new FaultToleranceOracle(container);
        Method run = method(Guarded.class, "run");
        OptionalInt perJvm = ft.bulkhead(Guarded.class, run);
        LimitDefinition mapped = ft.mapped(Guarded.class, run);
        assertThat(perJvm.isPresent()).as("FT applies its bulkhead").isEqualTo(on);
        assertThat(mapped != null && mapped.enabled())
            .as("the cluster-wide one is on")
            .isEqualTo(on);
      } finally {
        container.close();
      }
    }
  }
}
