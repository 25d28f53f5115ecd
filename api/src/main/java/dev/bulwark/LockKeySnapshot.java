package dev.bulwark;

import java.util.List;
import java.util.Optional;

/**
 * One key of a lock as the store sees it at one instant, across every JVM that shares the store.
 *
 * @param writer the live writer, if any
 * @param readers the live readers
 * @param queued requests waiting for the key, with a live lease
 */
public record LockKeySnapshot(
    String name, String key, Optional<Holder> writer, List<Holder> readers, int queued) {

  public LockKeySnapshot {
    readers = List.copyOf(readers);
  }
}
