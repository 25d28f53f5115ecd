package dev.bulwark.benchmarks.redis;

/** Percentiles of sorted samples in nanoseconds, in milliseconds (nearest rank). */
final class Percentiles {

  static double millis(long[] sorted, double percent) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, index)] / 1e6;
  }

  /** The median of three or more figures of a round each. */
  static double median(double... figures) {
    double[] sorted = figures.clone();
    java.util.Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private Percentiles() {}
}
