package dev.bulwark.core.config;

import dev.bulwark.RateLimitType;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** A resolved {@code @DistributedRateLimit}. */
public record RateLimitDefinition(
    String name,
    Origin origin,
    boolean enabled,
    int value,
    Duration window,
    RateLimitType type,
    Duration waitingTime,
    Map<String, String> sources)
    implements LimitDefinition {

  @Override
  public LimitKind kind() {
    return LimitKind.RATE_LIMIT;
  }

  @Override
  public Map<String, String> values() {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("value", Integer.toString(value));
    values.put("window", Durations.format(window));
    values.put("type", type.name());
    values.put("waitingTime", Durations.format(waitingTime));
    return values;
  }
}
