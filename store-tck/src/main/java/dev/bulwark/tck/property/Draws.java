package dev.bulwark.tck.property;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The choices one try of a property is made of. A fresh try draws them from a random generator
 * seeded with the try's seed, and records them; a replay reads a recorded (or shrunk) sequence
 * instead. Every generated value, list length and step of a chain is a function of these choices
 * alone, so a seed replays a try, and a shorter or smaller sequence of choices is a simpler sample:
 * shrinking works on the choices, whatever the generators build from them.
 *
 * <p>Each choice is a whole number from 0 to a bound the generator gives; 0 is the simplest (a
 * range's lower end, a list's first element, a sequence's end). A replay past the end of its
 * choices reads 0, and a recorded choice above the bound of the generator that now reads it is read
 * as that bound.
 */
public final class Draws {

  private final SplittableRandom random;
  private final long[] replay;
  private int position;
  private long[] record = new long[64];
  private int recorded;

  private Draws(SplittableRandom random, long[] replay) {
    this.random = random;
    this.replay = replay;
  }

  static Draws fresh(long seed) {
    return new Draws(new SplittableRandom(seed), null);
  }

  static Draws replay(long[] choices) {
    return new Draws(null, choices.clone());
  }

  boolean replaying() {
    return replay != null;
  }

  /**
   * A choice from 0 to {@code max}: fresh, it is 0 or {@code max} about one time in ten each, small
   * (below a random power of two) about one time in five, else uniform; edges and small values find
   * more faults than the middle of a wide range does.
   */
  long biased(long max) {
    if (replay != null) {
      return replayed(max);
    }
    int kind = random.nextInt(20);
    long value;
    if (kind < 2) {
      value = 0;
    } else if (kind < 4) {
      value = max;
    } else if (kind < 8) {
      int bits = random.nextInt(64);
      long small = bits == 0 ? 0 : random.nextLong() >>> (64 - bits);
      value = small <= max ? small : uniformFresh(max);
    } else {
      value = uniformFresh(max);
    }
    return record(value);
  }

  /** A choice from 0 to {@code max}, every one as likely when fresh: an index, a pick. */
  long uniform(long max) {
    return replay != null ? replayed(max) : record(uniformFresh(max));
  }

  /**
   * Whether a sequence (a list, a chain of steps) goes on: fresh, as {@code wanted}; replayed, as
   * recorded, so that removing a recorded 1 and what follows it removes one element.
   */
  boolean more(boolean wanted) {
    return (replay != null ? replayed(1) : record(wanted ? 1 : 0)) == 1;
  }

  /**
   * How long a fresh sequence is meant to be, from {@code min} to {@code max} (biased as {@link
   * #biased} is). Not a recorded choice: a replay's lengths come from its {@link #more} choices.
   */
  int freshLength(int min, int max) {
    if (replay != null) {
      return max;
    }
    int span = max - min;
    int kind = random.nextInt(20);
    if (kind < 2) {
      return min;
    } else if (kind < 4) {
      return max;
    } else if (kind < 10) {
      // short ones, the most readable when a fault needs only a few elements
      return min + random.nextInt(Math.min(span, 8) + 1);
    }
    return min + random.nextInt(span + 1);
  }

  /** The choices made so far, in order. */
  long[] choices() {
    return Arrays.copyOf(record, recorded);
  }

  private long uniformFresh(long max) {
    return max == Long.MAX_VALUE ? random.nextLong() & Long.MAX_VALUE : random.nextLong(max + 1);
  }

  private long replayed(long max) {
    long value = position < replay.length ? Math.min(replay[position], max) : 0;
    position++;
    return record(value);
  }

  private long record(long value) {
    if (recorded == record.length) {
      record = Arrays.copyOf(record, recorded * 2);
    }
    record[recorded++] = value;
    return value;
  }

  /**
   * A replayed sequence of choices no sample can be built from (a filter rejected every value it
   * led to): the shrinker drops the candidate, it is not a failure of the property.
   */
  static final class Unusable extends RuntimeException {
    Unusable(String message) {
      super(message, null, false, false);
    }
  }
}
