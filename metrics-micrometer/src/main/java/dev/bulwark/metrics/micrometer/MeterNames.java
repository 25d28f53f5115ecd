package dev.bulwark.metrics.micrometer;

import dev.bulwark.event.LimitType;
import dev.bulwark.event.RejectionReason;
import java.util.Locale;

/**
 * Bulwark's meter names and tag values, modelled on MicroProfile Fault Tolerance's {@code ft.*}
 * metrics. Prometheus shows them with underscores, counters with {@code _total} and timers in
 * seconds ({@code bulwark_calls_total}, {@code bulwark_wait_time_seconds_bucket}).
 */
public final class MeterNames {

  /** Counter: calls that asked a limit, by {@code result} and {@code reason}. */
  public static final String CALLS = "bulwark.calls";

  /** Timer (histogram): from the request to the grant or the rejection, by {@code result}. */
  public static final String WAIT_TIME = "bulwark.wait.time";

  /** Timer (histogram): from the grant to the release (bulkheads and locks). */
  public static final String HOLD_TIME = "bulwark.hold.time";

  /** Gauge: calls of this JVM that hold a permit or lock now. */
  public static final String RUNNING = "bulwark.running";

  /** Gauge: the limit's value (bulkhead: calls at once; rate limit: calls per window). */
  public static final String LIMIT = "bulwark.limit";

  /** Counter: running calls whose lease the store no longer knew when it was renewed. */
  public static final String LEASES_LOST = "bulwark.leases.lost";

  /** Counter: releases of grants whose lease had run out before their call ended. */
  public static final String LEASES_EXPIRED = "bulwark.leases.expired";

  /** Counter: store calls that failed, by the failure {@code policy} that decided the outcome. */
  public static final String STORE_FAILURES = "bulwark.store.failures";

  /** Gauge: 1 while the store answers calls, 0 during an outage. */
  public static final String STORE_AVAILABLE = "bulwark.store.available";

  /** Counter: outages of the store (one per outage, at its start). */
  public static final String STORE_OUTAGES = "bulwark.store.outages";

  /** Gauge, read from the store: holders of a bulkhead across every JVM. */
  public static final String CLUSTER_HOLDERS = "bulwark.cluster.holders";

  /** Gauge, read from the store: calls queued for a bulkhead across every JVM. */
  public static final String CLUSTER_QUEUED = "bulwark.cluster.queued";

  /** Gauge, read from the store: permits a call could take now (bulkhead or rate limit). */
  public static final String CLUSTER_AVAILABLE = "bulwark.cluster.available";

  public static final String TAG_NAME = "name";
  public static final String TAG_KIND = "kind";
  public static final String TAG_RESULT = "result";
  public static final String TAG_REASON = "reason";
  public static final String TAG_STORE = "store";
  public static final String TAG_POLICY = "policy";

  public static final String GRANTED = "granted";
  public static final String REJECTED = "rejected";
  public static final String PASSED_THROUGH = "passed-through";

  /** The {@code reason} of a call that was not rejected. */
  public static final String NO_REASON = "none";

  private MeterNames() {}

  /** {@code bulkhead}, {@code rate-limit} or {@code lock}. */
  public static String kind(LimitType type) {
    return type.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** {@code full}, {@code timed-out}, {@code interrupted} or {@code store-down}. */
  public static String reason(RejectionReason reason) {
    return reason.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
