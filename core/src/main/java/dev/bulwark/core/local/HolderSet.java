package dev.bulwark.core.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The request ids that hold a bulkhead's permits, so that releasing what is not held changes
 * nothing. A bulkhead of a few permits (the usual case) keeps them in one slot per permit, claimed
 * and freed by compare-and-set: no allocation and a scan of a few longs on the hot path. A larger
 * one uses a concurrent set.
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

  /** Ids beyond the slots: a large bulkhead, or one whose limit grew after it was created. */
  private final Set<Long> large = ConcurrentHashMap.newKeySet();

  HolderSet(int limit) {
    // a power of two at least the limit: an id's home slot is a mask, not a division
    slots =
        new AtomicLongArray(
            limit <= 0 || limit > MAX_SLOTS ? 0 : Integer.highestOneBit(limit * 2 - 1));
    for (int i = 0; i < slots.length(); i++) {
      slots.set(i, FREE);
    }
  }

  /** Adds a holder of a bulkhead of {@code limit} permits that has just taken one. */
  void add(long requestId, int limit) {
    if (limit > slots.length() || slots.length() == 0) {
      large.add(requestId);
      return;
    }
    int length = slots.length();
    int slot = home(requestId);
    while (true) {
      for (int tried = 0; tried < length; tried++) {
        if (slots.get(slot) == FREE && slots.compareAndSet(slot, FREE, requestId)) {
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
      if (slots.get(slot) == requestId && slots.compareAndSet(slot, requestId, FREE)) {
        return true;
      }
      if (++slot == length) {
        slot = 0;
      }
    }
    return !large.isEmpty() && large.remove(requestId);
  }

  /** The ids holding now, for operators: read slot by slot, so not one atomic instant. */
  List<Long> ids() {
    List<Long> ids = new ArrayList<>(large);
    for (int i = 0; i < slots.length(); i++) {
      long id = slots.get(i);
      if (id != FREE) {
        ids.add(id);
      }
    }
    return ids;
  }

  /** Where an id's search starts: uncontended, its own slot, found at the first look. */
  private int home(long requestId) {
    return (int) requestId & (slots.length() - 1);
  }
}
