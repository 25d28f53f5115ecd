package dev.bulwark.tck.model;

import dev.bulwark.spi.Outcome;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@link dev.bulwark.spi.PermitStore} promises as the simplest program that keeps them: a set
 * of at most {@code limit} holders and a first-come, first-served queue whose head a release hands
 * its permit to. Leases never run out here: the properties use leases no run outlives.
 */
public final class PermitModel {

  private final int limit;
  private final Set<Caller> holders = new LinkedHashSet<>();
  private final Deque<Caller> queue = new ArrayDeque<>();
  private final Set<Caller> everQueued = new LinkedHashSet<>();
  private final Set<Caller> gone = new LinkedHashSet<>();

  public PermitModel(int limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive: " + limit);
    }
    this.limit = limit;
  }

  public int limit() {
    return limit;
  }

  public Outcome acquire(Caller caller, boolean mayQueue) {
    if (queue.isEmpty() && holders.size() < limit) {
      holders.add(caller);
      return Outcome.GRANTED;
    }
    if (!mayQueue) {
      gone.add(caller);
      return Outcome.REJECTED;
    }
    queue.addLast(caller);
    everQueued.add(caller);
    return Outcome.QUEUED;
  }

  /** What a poll of a request that was queued answers: queued still, or handed its permit. */
  public Outcome poll(Caller caller) {
    if (queue.contains(caller)) {
      return Outcome.QUEUED;
    }
    if (holders.contains(caller)) {
      return Outcome.GRANTED;
    }
    throw new IllegalArgumentException(caller + " is neither queued nor holding");
  }

  /** Withdraws a queued request; a request handed its permit meanwhile keeps it. */
  public Outcome cancel(Caller caller) {
    if (queue.remove(caller)) {
      gone.add(caller);
      return Outcome.REJECTED;
    }
    return poll(caller);
  }

  /**
   * Releases {@code caller}'s permit and hands free permits to the head of the queue.
   *
   * @return whether it was held, and who was handed a permit, in order
   */
  public Release release(Caller caller) {
    boolean held = holders.remove(caller);
    if (held) {
      gone.add(caller);
    }
    List<Caller> handedOver = new ArrayList<>();
    while (!queue.isEmpty() && holders.size() < limit) {
      Caller next = queue.removeFirst();
      holders.add(next);
      handedOver.add(next);
    }
    return new Release(held, handedOver);
  }

  /** The outcome of a release: whether the caller held a permit, and the hand-overs it made. */
  public record Release(boolean held, List<Caller> handedOver) {}

  public List<Caller> holders() {
    return List.copyOf(holders);
  }

  public List<Caller> queue() {
    return List.copyOf(queue);
  }

  /** Requests that were queued and are queued or holding still: what poll and cancel apply to. */
  public List<Caller> waitingOrHandedOver() {
    return everQueued.stream().filter(c -> queue.contains(c) || holders.contains(c)).toList();
  }

  /** Requests that hold nothing any more (released, withdrawn or rejected). */
  public List<Caller> gone() {
    return List.copyOf(gone);
  }

  @Override
  public String toString() {
    return "permits(limit " + limit + ", holders " + holders + ", queue " + queue + ")";
  }
}
