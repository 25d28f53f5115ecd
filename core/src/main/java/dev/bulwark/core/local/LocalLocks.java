package dev.bulwark.core.local;

import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keyed read-write locks of one JVM. Each key's state lives in the map only while somebody holds or
 * waits for it, so a million distinct keys cost nothing once released. Requests queue first come,
 * first served: a queued writer holds back every reader behind it.
 *
 * <p>Fencing tokens come from one counter per name, started at the epoch in microseconds: they grow
 * with every write grant of every key, survive the removal of idle keys, and keep growing across
 * restarts of the JVM. A reader carries the token of its key's last write while the key has state;
 * a reader of an idle key gets the name's latest token, which is at least that key's last one.
 */
final class LocalLocks implements LockStore {

  private final Map<String, Family> families = new ConcurrentHashMap<>();
  private final GrantListener listener;

  LocalLocks(GrantListener listener) {
    this.listener = listener;
  }

  @Override
  public Grant acquire(LockSpec spec, String key, LockMode mode, long requestId, boolean mayQueue) {
    Family family = family(spec);
    Grant[] result = new Grant[1];
    family.keys.compute(
        key,
        (k, state) -> {
          KeyState s = state == null ? new KeyState() : state;
          result[0] = s.acquire(family, mode, requestId, mayQueue);
          return s.idle() ? null : s;
        });
    return result[0];
  }

  @Override
  public Grant poll(LockSpec spec, String key, long requestId) {
    Grant[] result = {Grant.GRANTED};
    family(spec)
        .keys
        .computeIfPresent(
            key,
            (k, state) -> {
              result[0] =
                  state.isQueued(requestId)
                      ? Grant.QUEUED
                      : Grant.granted(state.tokenOf(requestId));
              return state;
            });
    return result[0];
  }

  @Override
  public Grant cancel(LockSpec spec, String key, long requestId) {
    Family family = family(spec);
    Grant[] result = {Grant.GRANTED};
    List<long[]> granted = new ArrayList<>();
    family.keys.computeIfPresent(
        key,
        (k, state) -> {
          if (state.withdraw(requestId)) {
            result[0] = Grant.REJECTED;
            // a withdrawn writer at the head may have been holding readers back
            state.grantFromQueue(family, granted);
          } else {
            result[0] = Grant.granted(state.tokenOf(requestId));
          }
          return state.idle() ? null : state;
        });
    granted.forEach(g -> listener.granted(g[0], g[1]));
    return result[0];
  }

  @Override
  public boolean release(LockSpec spec, String key, long requestId) {
    Family family = family(spec);
    List<long[]> granted = new ArrayList<>();
    boolean[] held = new boolean[1];
    family.keys.computeIfPresent(
        key,
        (k, state) -> {
          held[0] = state.release(requestId);
          state.grantFromQueue(family, granted);
          return state.idle() ? null : state;
        });
    granted.forEach(g -> listener.granted(g[0], g[1]));
    return held[0];
  }

  @Override
  public LockKeySnapshot inspect(LockSpec spec, String key) {
    LockKeySnapshot[] snapshot = {
      new LockKeySnapshot(spec.name(), key, Optional.empty(), List.of(), 0)
    };
    family(spec)
        .keys
        .computeIfPresent(
            key,
            (k, state) -> {
              snapshot[0] = state.snapshot(spec.name(), key);
              return state;
            });
    return snapshot[0];
  }

  /** Keys of {@code name} that hold state right now, for tests and diagnostics. */
  int liveKeys(String name) {
    Family family = families.get(name);
    return family == null ? 0 : family.keys.size();
  }

  private Family family(LockSpec spec) {
    Family family = families.get(spec.name());
    return family != null ? family : families.computeIfAbsent(spec.name(), n -> new Family());
  }

  /** The keys of one lock name and its fencing counter. */
  private static final class Family {
    final Map<String, KeyState> keys = new ConcurrentHashMap<>();
    final AtomicLong fencing = new AtomicLong(System.currentTimeMillis() * 1000);
  }

  /** One key: its holders and its queue. Only touched inside the map's per-key compute. */
  private static final class KeyState {
    private long writer;

    /** When the writer was granted (nanos on the {@link LocalClock}). */
    private long writerSince;

    /** The token of this key's last write grant while the key has state; 0 before the first. */
    private long lastWriteToken;

    /**
     * Held by id, so that a release of a request that holds nothing changes nothing, with when each
     * was granted (nanos on the {@link LocalClock}).
     */
    private final Map<Long, Long> readers = new HashMap<>();

    /** Queued requests in arrival order; created on first contention, like the next one. */
    private LinkedHashMap<Long, LockMode> queue;

    /** Tokens of requests granted from the queue, until they are released. */
    private Map<Long, Long> handedOver;

    Grant acquire(Family family, LockMode mode, long requestId, boolean mayQueue) {
      if (noQueue() && compatible(mode)) {
        return Grant.granted(take(family, mode, requestId));
      }
      if (!mayQueue) {
        return Grant.REJECTED;
      }
      if (queue == null) {
        queue = new LinkedHashMap<>();
      }
      queue.put(requestId, mode);
      return Grant.QUEUED;
    }

    LockKeySnapshot snapshot(String name, String key) {
      return new LockKeySnapshot(
          name,
          key,
          writer == 0 ? Optional.empty() : Optional.of(LocalStore.holder(writer, writerSince)),
          readers.entrySet().stream()
              .map(r -> LocalStore.holder(r.getKey(), r.getValue()))
              .toList(),
          queue == null ? 0 : queue.size());
    }

    private boolean compatible(LockMode mode) {
      return writer == 0 && (mode == LockMode.READ || readers.isEmpty());
    }

    private long take(Family family, LockMode mode, long requestId) {
      if (mode == LockMode.WRITE) {
        writer = requestId;
        writerSince = LocalClock.nowNanos();
        lastWriteToken = family.fencing.incrementAndGet();
        return lastWriteToken;
      }
      readers.putIfAbsent(requestId, LocalClock.nowNanos());
      return lastWriteToken != 0 ? lastWriteToken : family.fencing.get();
    }

    boolean release(long requestId) {
      if (handedOver != null) {
        handedOver.remove(requestId);
      }
      if (writer == requestId) {
        writer = 0;
        return true;
      }
      return readers.remove(requestId) != null;
    }

    /** Grants from the head of the queue while the head is compatible; FIFO, no overtaking. */
    void grantFromQueue(Family family, List<long[]> granted) {
      if (noQueue()) {
        return;
      }
      if (handedOver == null) {
        handedOver = new LinkedHashMap<>();
      }
      Iterator<Map.Entry<Long, LockMode>> head = queue.entrySet().iterator();
      while (head.hasNext()) {
        Map.Entry<Long, LockMode> next = head.next();
        if (!compatible(next.getValue())) {
          return;
        }
        head.remove();
        long token = take(family, next.getValue(), next.getKey());
        handedOver.put(next.getKey(), token);
        granted.add(new long[] {next.getKey(), token});
      }
    }

    long tokenOf(long requestId) {
      Long token = handedOver == null ? null : handedOver.get(requestId);
      return token == null ? 0 : token;
    }

    boolean idle() {
      return writer == 0 && readers.isEmpty() && noQueue();
    }

    boolean isQueued(long requestId) {
      return queue != null && queue.containsKey(requestId);
    }

    boolean withdraw(long requestId) {
      return queue != null && queue.remove(requestId) != null;
    }

    private boolean noQueue() {
      return queue == null || queue.isEmpty();
    }
  }
}
