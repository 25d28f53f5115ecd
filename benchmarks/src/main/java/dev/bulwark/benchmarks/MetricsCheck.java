package dev.bulwark.benchmarks;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Proves, after {@link InterceptionCheck} ran its probe calls, that both libraries really record
 * into the registry: metrics silently left off would make the metrics variant look as cheap as the
 * one without.
 */
final class MetricsCheck {

  private MetricsCheck() {}

  static void run(MeterRegistry registry) {
    expectCounted(registry, "SmallRye Fault Tolerance", "ft.invocations.total");
    expectCounted(registry, "Bulwark", "bulwark.calls");
  }

  private static void expectCounted(MeterRegistry registry, String what, String name) {
    double calls = registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
    if (calls == 0) {
      throw new IllegalStateException(
          what + " records no metrics: no " + name + " counter counted the probe calls");
    }
  }
}
