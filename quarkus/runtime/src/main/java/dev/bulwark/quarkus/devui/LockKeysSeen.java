package dev.bulwark.quarkus.devui;

import dev.bulwark.event.BulwarkEvent;
import dev.bulwark.event.BulwarkListener;
import dev.bulwark.event.Granted;
import dev.bulwark.event.LimitType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The lock keys this JVM granted lately, per lock: a store can tell who holds a key but cannot list
 * a lock's keys, so the Dev UI inspects these. A bean in dev mode only (a listener costs every call
 * an event), registered by the extension's Dev UI build step.
 */
public class LockKeysSeen implements BulwarkListener {

  /** Keys kept per lock, the most recently granted ones. */
  static final int KEYS_PER_LOCK = 20;

  private final Map<String, LinkedHashSet<String>> byLock = new HashMap<>();

  @Override
  public void on(BulwarkEvent event) {
    if (event instanceof Granted granted && granted.type() == LimitType.LOCK) {
      remember(granted.name(), granted.key());
    }
  }

  synchronized void remember(String lock, String key) {
    // insertion order: the oldest grant first, the latest last
    LinkedHashSet<String> keys = byLock.computeIfAbsent(lock, l -> new LinkedHashSet<>());
    keys.remove(key);
    keys.add(key);
    if (keys.size() > KEYS_PER_LOCK) {
      Iterator<String> oldest = keys.iterator();
      oldest.next();
      oldest.remove();
    }
  }

  /** The lock's keys, the most recently granted first. */
  synchronized List<String> of(String lock) {
    LinkedHashSet<String> keys = byLock.get(lock);
    if (keys == null) {
      return List.of();
    }
    List<String> latestFirst = new ArrayList<>(keys);
    Collections.reverse(latestFirst);
    return latestFirst;
  }
}
