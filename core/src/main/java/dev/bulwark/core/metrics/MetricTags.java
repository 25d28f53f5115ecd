package dev.bulwark.core.metrics;

import dev.bulwark.core.engine.FailurePolicy;
import dev.bulwark.event.LimitType;
import dev.bulwark.event.RejectionReason;
import java.util.Locale;

/** The tags Bulwark's metrics carry, and their values. */
public final class MetricTags {

  /** The limit's name. */
  public static final String NAME = "name";

  /** {@code bulkhead}, {@code rate-limit} or {@code lock}. */
  public static final String KIND = "kind";

  /** {@code granted}, {@code rejected} or {@code passed-through}. */
  public static final String RESULT = "result";

  /** Why a call was rejected; {@code none} for the others. */
  public static final String REASON = "reason";

  /** The store's id ({@code local}, {@code redis}, {@code jpa}). */
  public static final String STORE = "store";

  /** The failure policy that decided what a caller got when the store failed. */
  public static final String POLICY = "policy";

  public static final String GRANTED = "granted";
  public static final String REJECTED = "rejected";
  public static final String PASSED_THROUGH = "passed-through";

  /** The {@code reason} of a call that was not rejected. */
  public static final String NO_REASON = "none";

  private MetricTags() {}

  /** {@code bulkhead}, {@code rate-limit} or {@code lock}. */
  public static String kind(LimitType type) {
    return dashed(type);
  }

  /** {@code full}, {@code timed-out}, {@code interrupted} or {@code store-down}. */
  public static String reason(RejectionReason reason) {
    return dashed(reason);
  }

  /** {@code fail-closed}, {@code fail-open} or {@code local}. */
  public static String policy(FailurePolicy policy) {
    return dashed(policy);
  }

  private static String dashed(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
