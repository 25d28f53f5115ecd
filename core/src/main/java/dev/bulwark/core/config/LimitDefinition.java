package dev.bulwark.core.config;

import java.time.Duration;
import java.util.Map;

/** What every resolved limit has: a name, where it is declared, and where each value came from. */
public sealed interface LimitDefinition
    permits BulkheadDefinition, RateLimitDefinition, LockDefinition {

  LimitKind kind();

  String name();

  Origin origin();

  boolean enabled();

  /** How long a call of the declaring method may wait to be admitted. */
  Duration waitingTime();

  /** The effective values as shown in the startup table, member by member. */
  Map<String, String> values();

  /** Per member, the config key that set it, or {@code annotation} / {@code default}. */
  Map<String, String> sources();
}
