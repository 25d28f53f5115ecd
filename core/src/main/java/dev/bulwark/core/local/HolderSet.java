package dev.bulwark.core.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The request ids that hold a bulkhead's permits, so that releasing what is not held changes
 * nothing, and when each was granted, for the operator's view. A bulkhead of a few permits (the
 * usual case) keeps them in one slot per permit, claimed and freed by compare-and-set, its grant
 * time in the same slot of a second array: no allocation and a scan of a few longs on the hot path.
 * A larger one uses a concurrent map.
 *
 * <p>The caller takes a permit from the count before it adds, and removes before it gives the
 * permit back to the count, so there are never more ids than slots and an add always finds a free
 * one.
 */
final class HolderSet {

  /** Up to this many permits, slots; above it, the set. */
  static final int MAX_SLOTS = 64;

  /** Marks a free slot; request ids come from a counter that starts at 1. */
  private static final long FREE = Long.MIN_VALUE;

  private final AtomicLongArray slots;

  /**
   * When the id in the same slot was granted (nanos on the {@link LocalClock}); {@link #UNKNOWN}
   * from before the id leaves its slot until the next holder's time is written.
   */
  private final AtomicLongArray since;

  /** Marks a slot whose holder's grant time is not written (yet). */
  private static final long UNKNOWN = 0;

  /**
   * Ids beyond the slots, with their grant times: a large bulkhead, or one whose limit grew after
   * it was created.
   */
  private final Map<Long, Long> large = new ConcurrentHashMap<>();

  HolderSet(int limit) {
    // a power of two at least the limit: an id's home slot is a mask, not a division
    slots =
        new AtomicLongArray(
            limit <= 0 || limit > MAX_SLOTS ? 0 : Integer.highestOneBit(limit * 2 - 1));
    for (int i = 0; i < slots.length(); i++) {
      slots.set(i, FREE);
    }
    since = new AtomicLongArray(slots.length());
  }

  /**
   * Adds a holder of a bulkhead of {@code limit} permits that has just taken one, granted at {@code
   * sinceNanos}.
   */
  void add(long requestId, int limit, long sinceNanos) {
    if (limit > slots.length() || slots.length() == 0) {
      large.put(requestId, sinceNanos);
      return;
    }
    int length = slots.length();
    int slot = home(requestId);
    while (true) {
      for (int tried = 0; tried < length; tried++) {
        if (slots.get(slot) == FREE && slots.compareAndSet(slot, FREE, requestId)) {
          since.set(slot, sinceNanos);
          return;
        }
        if (++slot == length) {
          slot = 0;
        }
      }
      Thread.onSpinWait(); // a releaser is between freeing its slot and giving its permit back
    }
  }

  /**
   * @return whether {@code requestId} held a permit (and no longer does)
   */
  boolean remove(long requestId) {
    int length = slots.length();
    int slot = home(requestId);
    for (int tried = 0; tried < length; tried++) {
      if (slots.get(slot) == requestId) {
        // cleared while the slot is still this id's, so no reader pairs the next id with this time
        since.set(slot, UNKNOWN);
        if (slots.compareAndSet(slot, requestId, FREE)) {
          return true;
        }
      }
      if (++slot == length) {
        slot = 0;
      }
    }
    return !large.isEmpty() && large.remove(requestId) != null;
  }

  /**
   * The holders now, for operators: read slot by slot, so not one atomic instant. A holder whose
   * grant time is being written at this instant is shown as granted {@code nowNanos}.
   */
  List<Held> holders(long nowNanos) {
    List<Held> holders = new ArrayList<>(slots.length() + large.size());
    large.forEach((id, granted) -> holders.add(new Held(id, granted)));
    for (int i = 0; i < slots.length(); i++) {
      long id = slots.get(i);
      long granted = since.get(i);
      // read again: an id that left its slot meanwhile may have been paired with the next one's
      // time
      if (id != FREE && slots.get(i) == id) {
        holders.add(new Held(id, granted == UNKNOWN ? nowNanos : granted));
      }
    }
    return holders;
  }

  /** One holder: its request id and when it was granted (nanos on the {@link LocalClock}). */
  record Held(long requestId, long sinceNanos) {}

  /** Where an id's search starts: uncontended, its own slot, found at the first look. */
  private int home(long requestId) {
    return (int) requestId & (slots.length() - 1);
  }
}
