package dev.bulwark.core.config;

import dev.bulwark.LockMode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** A resolved {@code @DistributedLock}. */
public record LockDefinition(
    String name,
    Origin origin,
    boolean enabled,
    LockMode mode,
    Duration waitingTime,
    Duration lease,
    Map<String, String> sources)
    implements LimitDefinition {

  @Override
  public LimitKind kind() {
    return LimitKind.LOCK;
  }

  @Override
  public Map<String, String> values() {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("mode", mode.name());
    values.put("waitingTime", Durations.format(waitingTime));
    values.put("lease", Durations.format(lease));
    return values;
  }
}
