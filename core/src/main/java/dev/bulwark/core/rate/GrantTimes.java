package dev.bulwark.core.rate;

/**
 * Grant times in ascending order, read by position: all {@link RollingWindowState#step} reads of a
 * rolling log. A store that keeps its log outside the JVM (a table) passes a view that fetches only
 * the positions asked for; a step asks for a few positions near the ends and near {@code permits},
 * plus O(log expired) to find where the unexpired part starts.
 */
public interface GrantTimes {

  int size();

  /** The {@code index}-th oldest grant time. */
  long get(int index);
}
