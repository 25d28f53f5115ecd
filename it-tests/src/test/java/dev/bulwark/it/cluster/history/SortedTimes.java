package dev.bulwark.it.cluster.history;

/** Searches in an ascending array of instants, as the history rules look up calls by time. */
public final class SortedTimes {

  private SortedTimes() {}

  /** The index of the first element of sorted {@code values} greater than {@code limit}. */
  public static int firstAfter(long[] values, long limit) {
    int low = 0;
    int high = values.length;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (values[mid] <= limit) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  /** The index of the first element of sorted {@code values} at or above {@code limit}. */
  public static int firstAtOrAfter(long[] values, long limit) {
    return limit == Long.MIN_VALUE ? 0 : firstAfter(values, limit - 1);
  }

  /**
   * The index of the last element of sorted {@code values} at or below {@code limit}; -1 if none.
   */
  public static int lastAtOrBefore(long[] values, long limit) {
    return firstAfter(values, limit) - 1;
  }
}
