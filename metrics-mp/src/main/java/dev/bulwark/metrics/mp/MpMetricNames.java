package dev.bulwark.metrics.mp;

/**
 * Bulwark's MicroProfile Metrics names, in the style of MicroProfile Fault Tolerance's {@code ft.*}
 * (counters end in {@code .total}). Exported to Prometheus they read as the Micrometer module's:
 * {@code bulwark_calls_total} and so on.
 */
public final class MpMetricNames {

  public static final String CALLS = "bulwark.calls.total";
  public static final String WAIT_TIME = "bulwark.wait.time";
  public static final String HOLD_TIME = "bulwark.hold.time";
  public static final String RUNNING = "bulwark.running";
  public static final String LIMIT = "bulwark.limit";
  public static final String LEASES_LOST = "bulwark.leases.lost.total";
  public static final String LEASES_EXPIRED = "bulwark.leases.expired.total";
  public static final String STORE_FAILURES = "bulwark.store.failures.total";
  public static final String STORE_AVAILABLE = "bulwark.store.available";
  public static final String STORE_OUTAGES = "bulwark.store.outages.total";

  private MpMetricNames() {}
}
