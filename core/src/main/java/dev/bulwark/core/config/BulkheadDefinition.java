package dev.bulwark.core.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** A resolved {@code @DistributedBulkhead}. */
public record BulkheadDefinition(
    String name,
    Origin origin,
    boolean enabled,
    int value,
    Duration waitingTime,
    Duration lease,
    Map<String, String> sources)
    implements LimitDefinition {

  @Override
  public LimitKind kind() {
    return LimitKind.BULKHEAD;
  }

  @Override
  public Map<String, String> values() {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("value", Integer.toString(value));
    values.put("waitingTime", Durations.format(waitingTime));
    values.put("lease", Durations.format(lease));
    return values;
  }
}
