package dev.bulwark.core.local;

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
    slots = new AtomicLongArray(limit <= MAX_SLOTS ? limit : 0);
    for (int i = 0; i < slots.length(); i++) {
      slots.set(i, FREE);
    }
  }

  /** Adds a holder of a bulkhead of {@code limit} permits that has just taken one. */
  void add(long requestId, int limit) {
    if (limit > slots.length()) {
      large.add(requestId);
      return;
    }
    int length = slots.length();
    int start = (int) Math.floorMod(requestId, (long) length);
    while (true) {
      for (int i = 0; i < length; i++) {
        int slot = (start + i) % length;
        if (slots.get(slot) == FREE && slots.compareAndSet(slot, FREE, requestId)) {
          return;
        }
      }
      Thread.onSpinWait(); // a releaser is between freeing its slot and giving its permit back
    }
  }

  /**
   * @return whether {@code requestId} held a permit (and no longer does)
   */
  boolean remove(long requestId) {
    for (int slot = 0; slot < slots.length(); slot++) {
      if (slots.get(slot) == requestId && slots.compareAndSet(slot, requestId, FREE)) {
        return true;
      }
    }
    return !large.isEmpty() && large.remove(requestId);
  }
}
