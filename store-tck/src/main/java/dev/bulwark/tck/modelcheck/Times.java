package dev.bulwark.tck.modelcheck;

/**
 * The canonical form of an instant: how far ahead of now it lies, or "-" when it has passed. The
 * scripts only ever compare an instant with now, and now only grows, so two states that differ only
 * in how long ago something ended behave alike.
 */
public final class Times {

  private Times() {}

  public static String ahead(long instant, long now) {
    return instant > now ? "+" + (instant - now) : "-";
  }
}
