package dev.bulwark.tck.model;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link dev.bulwark.spi.RateStore} promises for one limit, as the simplest program that keeps
 * them, for a caller that knows the store's clock only between readings taken around each call.
 *
 * <p>Every type answers a call at instant {@code t} the same way: the caller's slot starts at
 * {@code max(t, next)}, where {@code next} is the earliest start the limit allows a new permit; a
 * slot that starts within the caller's maximum wait is granted with the delay until it, otherwise
 * the call is rejected with that delay and takes nothing. The types differ only in {@code next}:
 *
 * <ul>
 *   <li>SMOOTH: the theoretical arrival time {@code tat} of the next permit less a window plus an
 *       interval; a grant at {@code t} moves {@code tat} to {@code max(t, tat) + interval}.
 *   <li>ROLLING: the start of the {@code permits}-th newest slot plus a window, and no earlier than
 *       the newest slot (slots go in the order of the calls): never more than {@code permits} slots
 *       in a window.
 *   <li>FIXED: the windows are numbered from the clock's epoch, and the slots taken since window
 *       {@code start} fill that window and those after it, {@code permits} each; a call in a later
 *       window first forgets the windows that passed, and a call more than a day before window
 *       {@code start} (numbered under a shorter window) forgets them all. {@code next} is the start
 *       of the first window with room, or {@code t}'s own.
 * </ul>
 *
 * <p>Since {@code t} is known only as a span, so is what the limit remembers of it: the model keeps
 * every state the calls so far leave possible, each with spans for its instants, and narrows them
 * with every answer (a delay pins {@code t} to {@code next} less the delay). An answer that no
 * remaining state gives, for any instant of the call's span, breaks a promise. The check is exact
 * when the spans are points, and never fails a store for what a span leaves open.
 */
public final class RateModel {

  private final long origin;
  private RateSpec spec;
  private List<State> states;

  /** A model whose time 0 is the store clock's epoch. */
  public RateModel(RateSpec spec) {
    this(spec, 0);
  }

  /**
   * @param origin the store-clock instant that the model's time 0 stands for (the calls' spans are
   *     relative to it), a whole number of every window the limit is given
   */
  public RateModel(RateSpec spec, long origin) {
    checkExact(spec);
    checkOrigin(spec, origin);
    this.origin = origin;
    this.spec = spec;
    this.states = List.of(initial(spec.type()));
  }

  public RateSpec spec() {
    return spec;
  }

  /**
   * The limit is defined anew under the same name and type: the state carries over and the new
   * permits and window apply from the next call on.
   */
  public void redefine(RateSpec next) {
    if (next.type() != spec.type() || !next.name().equals(spec.name())) {
      throw new IllegalArgumentException(next + " does not redefine " + spec);
    }
    checkExact(next);
    checkOrigin(next, origin);
    // a FIXED state keeps its window's number, which the store reads in the new length from its
    // own epoch: from the model's origin that is another number
    long renumbered = origin / spec.windowNanos() - origin / next.windowNanos();
    states = states.stream().map(state -> state.renumbered(renumbered)).distinct().toList();
    spec = next;
  }

  private static void checkOrigin(RateSpec spec, long origin) {
    if (spec.type() == RateLimitType.FIXED && origin % spec.windowNanos() != 0) {
      throw new IllegalArgumentException(spec + ": the origin is no whole number of windows");
    }
  }

  /**
   * Checks a store's answer to a call with {@code maxWaitNanos} made while its clock was within
   * {@code call}, and keeps what the answer tells of the limit.
   *
   * @return why no state of the model gives that answer, or empty when one does
   */
  public Optional<String> reserve(TimeSpan call, long maxWaitNanos, RateDecision decision) {
    if (decision.granted() && decision.delayNanos() > maxWaitNanos) {
      return Optional.of("granted a slot beyond the maximum wait of " + maxWaitNanos);
    }
    if (!decision.granted() && decision.delayNanos() <= maxWaitNanos) {
      return Optional.of("rejected although the next permit lies within the maximum wait");
    }
    Set<State> next = new LinkedHashSet<>();
    for (State state : states) {
      for (Branch branch : state.at(spec, call)) {
        next.addAll(branch.state().answer(spec, branch.call(), decision));
      }
    }
    if (next.isEmpty()) {
      return Optional.of("no state of " + this + " answers so at any instant of " + call);
    }
    states = List.copyOf(next);
    return Optional.empty();
  }

  /**
   * The model's arithmetic is exact only in whole intervals: a SMOOTH window must divide into its
   * permits (the stores then agree to the nanosecond, whatever unit they count in).
   */
  private static void checkExact(RateSpec spec) {
    if (spec.type() == RateLimitType.SMOOTH && spec.windowNanos() % spec.permits() != 0) {
      throw new IllegalArgumentException(spec + ": the window must divide into its permits");
    }
  }

  private static State initial(RateLimitType type) {
    return switch (type) {
      case SMOOTH -> new Smooth(null);
      case ROLLING -> new Rolling(List.of());
      case FIXED -> new Fixed(Long.MIN_VALUE, 0);
    };
  }

  @Override
  public String toString() {
    return spec.type()
        + " "
        + spec.permits()
        + " per "
        + spec.windowNanos() / 1_000_000
        + " ms "
        + states;
  }

  /** A state of the limit and the part of a call's span in which it holds. */
  private record Branch(State state, TimeSpan call) {}

  /** What a limit may remember, with the arithmetic every type shares. */
  private interface State {

    /** The states this one takes at an instant of {@code call}, each for a part of the span. */
    default List<Branch> at(RateSpec spec, TimeSpan call) {
      return List.of(new Branch(this, call));
    }

    /** The earliest start of a new permit, or null when any instant will do. */
    TimeSpan next(RateSpec spec);

    /** This state, knowing that its {@link #next} lies within {@code next}. */
    State narrowed(RateSpec spec, TimeSpan next);

    /** The state after a grant to a call at {@code arrival} of a slot starting at {@code slot}. */
    State granted(RateSpec spec, TimeSpan arrival, TimeSpan slot);

    /** This state with any window number it keeps moved by {@code windows}. */
    default State renumbered(long windows) {
      return this;
    }

    /** The states after {@code decision} that this one allows, for a call within {@code call}. */
    default List<State> answer(RateSpec spec, TimeSpan call, RateDecision decision) {
      TimeSpan next = next(spec);
      long delay = decision.delayNanos();
      if (decision.granted() && delay == 0) {
        // the slot starts at the call: the call came at or after next
        TimeSpan arrival = next == null ? call : call.within(next.earliest(), Long.MAX_VALUE);
        if (arrival == null) {
          return List.of();
        }
        State known =
            next == null ? this : narrowed(spec, next.within(Long.MIN_VALUE, arrival.latest()));
        return List.of(known.granted(spec, arrival, arrival));
      }
      // a delay (of a grant or of a rejection) is next less the call's instant
      TimeSpan pinned = next == null ? null : next.within(call.plus(delay));
      if (pinned == null) {
        return List.of();
      }
      State known = narrowed(spec, pinned);
      return List.of(decision.granted() ? known.granted(spec, pinned.plus(-delay), pinned) : known);
    }
  }

  /** SMOOTH: the theoretical arrival time of the next permit, or null before the first grant. */
  private record Smooth(TimeSpan tat) implements State {

    @Override
    public TimeSpan next(RateSpec spec) {
      return tat == null ? null : tat.plus(spec.emissionIntervalNanos() - spec.windowNanos());
    }

    @Override
    public State narrowed(RateSpec spec, TimeSpan next) {
      return new Smooth(next.plus(spec.windowNanos() - spec.emissionIntervalNanos()));
    }

    @Override
    public State granted(RateSpec spec, TimeSpan arrival, TimeSpan slot) {
      TimeSpan later = tat == null ? arrival : arrival.max(tat);
      return new Smooth(later.plus(spec.emissionIntervalNanos()));
    }
  }

  /** ROLLING: the starts of the slots granted, in the order granted (so ascending). */
  private record Rolling(List<TimeSpan> slots) implements State {

    @Override
    public TimeSpan next(RateSpec spec) {
      int size = slots.size();
      if (size == 0) {
        return null;
      }
      TimeSpan newest = slots.get(size - 1);
      return size < spec.permits() ? newest : windowAfter(spec).max(newest);
    }

    /** A window after the {@code permits}-th newest slot. */
    private TimeSpan windowAfter(RateSpec spec) {
      return slots.get(slots.size() - spec.permits()).plus(spec.windowNanos());
    }

    @Override
    public State narrowed(RateSpec spec, TimeSpan next) {
      int size = slots.size();
      List<TimeSpan> known = new ArrayList<>(slots);
      TimeSpan newest = slots.get(size - 1);
      if (size < spec.permits()) {
        known.set(size - 1, next);
        return new Rolling(List.copyOf(known));
      }
      TimeSpan windowAfter = windowAfter(spec);
      long window = spec.windowNanos();
      if (spec.permits() == 1 || windowAfter.earliest() >= newest.latest()) {
        known.set(size - spec.permits(), next.plus(-window));
      } else if (newest.earliest() >= windowAfter.latest()) {
        known.set(size - 1, next);
      } else {
        // either gave next: neither lies after it
        known.set(
            size - spec.permits(), windowAfter.within(Long.MIN_VALUE, next.latest()).plus(-window));
        known.set(size - 1, known.get(size - 1).within(Long.MIN_VALUE, next.latest()));
      }
      return new Rolling(List.copyOf(known));
    }

    @Override
    public State granted(RateSpec spec, TimeSpan arrival, TimeSpan slot) {
      List<TimeSpan> more = new ArrayList<>(slots);
      more.add(slot);
      return new Rolling(List.copyOf(more));
    }
  }

  /**
   * FIXED: the number of window {@code start} since the epoch and the slots taken since its
   * beginning ({@link Long#MIN_VALUE} and 0 before the first grant). Known exactly: what a call's
   * span leaves open is which window it fell in, and {@link #at} splits the span there.
   */
  private record Fixed(long start, long taken) implements State {

    /** A stored window further ahead of the clock than this is no lagging clock's. */
    private static final long MAX_CLOCK_LAG_NANOS = 86_400_000_000_000L;

    @Override
    public List<Branch> at(RateSpec spec, TimeSpan call) {
      long length = spec.windowNanos();
      List<Branch> branches = new ArrayList<>();
      for (long window = Math.floorDiv(call.earliest(), length);
          window <= Math.floorDiv(call.latest(), length);
          window++) {
        TimeSpan part = call.within(window * length, (window + 1) * length - 1);
        if (start == Long.MIN_VALUE) {
          branches.add(new Branch(new Fixed(window, 0), part));
        } else if (window >= start) {
          // the windows that passed took their permits' worth of the slots with them
          long left = Math.max(0, taken - (window - start) * spec.permits());
          branches.add(new Branch(new Fixed(window, left), part));
        } else if (start - window > MAX_CLOCK_LAG_NANOS / length + 1) {
          // numbered in a shorter window than the limit now has: it starts afresh
          branches.add(new Branch(new Fixed(window, 0), part));
        }
      }
      return branches;
    }

    @Override
    public TimeSpan next(RateSpec spec) {
      return TimeSpan.at((start + taken / spec.permits()) * spec.windowNanos());
    }

    @Override
    public State narrowed(RateSpec spec, TimeSpan next) {
      return this;
    }

    @Override
    public State granted(RateSpec spec, TimeSpan arrival, TimeSpan slot) {
      return new Fixed(start, taken + 1);
    }

    @Override
    public State renumbered(long windows) {
      return start == Long.MIN_VALUE ? this : new Fixed(start + windows, taken);
    }
  }
}
