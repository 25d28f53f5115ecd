package dev.bulwark.core.engine;

import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.event.LimitStats;

/**
 * One limit of the application, built once per kind and name: the entry to its chain. What an
 * operator's view (the startup table, metrics, the Dev UI) reads of every limit alike.
 */
public sealed interface Limit permits BulkheadLimiter, RateLimiter, KeyedLock {

  /** What the limit enforces, with where each value came from. */
  LimitDefinition definition();

  /** What happened at the limit in this JVM so far. */
  LimitStats stats();
}
