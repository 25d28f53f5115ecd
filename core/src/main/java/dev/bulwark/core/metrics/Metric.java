package dev.bulwark.core.metrics;

/**
 * Bulwark's metrics, modelled on MicroProfile Fault Tolerance's {@code ft.*} metrics: one list,
 * which every {@link MetricsRecorder} publishes under these names (a library that marks counters by
 * name, as MicroProfile Metrics does, appends {@code .total}). Prometheus shows them with
 * underscores, counters with {@code _total} and timers in seconds ({@code bulwark_calls_total},
 * {@code bulwark_wait_time_seconds_bucket}).
 */
public enum Metric {
  CALLS("bulwark.calls", Type.COUNTER, "Calls that asked a Bulwark limit, by result"),
  WAIT_TIME("bulwark.wait.time", Type.TIMER, "From the request to the grant or the rejection"),
  HOLD_TIME("bulwark.hold.time", Type.TIMER, "From the grant to the release"),
  RUNNING("bulwark.running", Type.GAUGE, "Calls of this JVM that hold a permit or lock now"),
  LIMIT(
      "bulwark.limit",
      Type.GAUGE,
      "The limit's value: calls at once (bulkhead) or per window (rate limit)"),
  LEASES_LOST(
      "bulwark.leases.lost", Type.COUNTER, "Running calls whose lease the store no longer knew"),
  LEASES_EXPIRED(
      "bulwark.leases.expired",
      Type.COUNTER,
      "Releases of grants whose lease had run out before their call ended"),
  STORE_FAILURES(
      "bulwark.store.failures",
      Type.COUNTER,
      "Store calls that failed; the failure policy decided what the caller got"),
  STORE_AVAILABLE(
      "bulwark.store.available", Type.GAUGE, "1 while the store answers calls, 0 during an outage"),
  STORE_OUTAGES(
      "bulwark.store.outages", Type.COUNTER, "Outages of the store, counted at their start"),
  CLUSTER_HOLDERS(
      "bulwark.cluster.holders",
      Type.GAUGE,
      "Holders of a bulkhead across every JVM, from the store"),
  CLUSTER_QUEUED(
      "bulwark.cluster.queued",
      Type.GAUGE,
      "Calls queued for a bulkhead across every JVM, from the store"),
  CLUSTER_AVAILABLE(
      "bulwark.cluster.available",
      Type.GAUGE,
      "Permits a call could take now across every JVM, from the store");

  /** How a metric is kept. */
  public enum Type {
    /** Only grows. */
    COUNTER,
    /** Durations: their count, sum, maximum and distribution. */
    TIMER,
    /** A value read when the metric is scraped. */
    GAUGE
  }

  private final String metricName;
  private final Type type;
  private final String description;

  Metric(String metricName, Type type, String description) {
    this.metricName = metricName;
    this.type = type;
    this.description = description;
  }

  /** The dotted name, as Micrometer takes it ({@code bulwark.calls}). */
  public String metricName() {
    return metricName;
  }

  public Type type() {
    return type;
  }

  public String description() {
    return description;
  }
}
