package dev.bulwark.it.cluster.history;

/** Nanoseconds as milliseconds, for the figures runs and rule violations report. */
public final class Millis {

  private Millis() {}

  public static double of(long nanos) {
    return nanos / 1_000_000.0;
  }
}
