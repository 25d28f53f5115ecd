package dev.bulwark.benchmarks;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Proves, after {@link InterceptionCheck} ran its probe calls, that both libraries record into the
 * registry exactly when the variant says so: metrics silently left off would make the metrics
 * variant look as cheap as the one without, and metrics silently left on would burden the baseline.
 */
final class MetricsCheck {

  private MetricsCheck() {}

  static void run(MeterRegistry registry, boolean recording) {
    expect(registry, "SmallRye Fault Tolerance", "ft.invocations.total", recording);
    expect(registry, "Bulwark", "bulwark.calls", recording);
  }

  private static void expect(MeterRegistry registry, String what, String name, boolean recording) {
    double calls = registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
    if (recording && calls == 0) {
      throw new IllegalStateException(
          what + " records no metrics: no " + name + " counter counted the probe calls");
    }
    if (!recording && calls > 0) {
      throw new IllegalStateException(
          what + " records metrics although they are off: " + name + " counted " + calls);
    }
  }
}
