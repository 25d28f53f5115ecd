package dev.bulwark.core.waiting;

import dev.bulwark.core.chain.StoreAccess;
import dev.bulwark.spi.GrantListener;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;

/**
 * The queued requests of this JVM by request id: the single {@link GrantListener} every store
 * reports hand-overs to. A request registers before it asks the store, so no grant can arrive
 * unseen.
 *
 * <p>Once queued, a request also joins its group (its limit, and lock key). While the store's
 * wake-ups are trusted a waiter does not poll, but room can still appear without a hand-over: a
 * holder whose lease ran out is reclaimed only by the next step on the limit, which then hands the
 * room down the queue and wakes whom it served. So each group has one check per interval, for all
 * its waiters however many: a timer asks the group's oldest waiter to poll, and that poll is the
 * step.
 */
public final class Waiters implements GrantListener {

  private final Map<Long, GrantSignal> waiting = new ConcurrentHashMap<>();

  /** The queued requests per group; a group is removed with its last request. */
  private final Map<String, Group> groups = new ConcurrentHashMap<>();

  /** One group's queued requests in the order they queued, and the timer of its next check. */
  private static final class Group {
    final LinkedHashSet<GrantSignal> queued = new LinkedHashSet<>(); // changed in groups.compute
    final StoreAccess access;
    ScheduledFuture<?> check; // changed in groups.compute

    Group(StoreAccess access) {
      this.access = access;
    }
  }

  void register(GrantSignal signal) {
    signal.registered();
    waiting.put(signal.requestId, signal);
  }

  /**
   * Joins a registered request to its group once the store queued it; the group's checks start with
   * its first request, one interval later.
   */
  void queued(GrantSignal signal, StoreAccess access) {
    String name = signal.group();
    signal.countedIn = name;
    groups.compute(
        name,
        (key, group) -> {
          Group joined = group != null ? group : new Group(access);
          joined.queued.add(signal);
          if (joined.check == null) {
            joined.check = scheduleCheck(key, joined);
          }
          return joined;
        });
  }

  void unregister(GrantSignal signal) {
    waiting.remove(signal.requestId, signal);
    String name = signal.countedIn;
    if (name != null) {
      signal.countedIn = null;
      groups.computeIfPresent(
          name,
          (key, group) -> {
            group.queued.remove(signal);
            if (!group.queued.isEmpty()) {
              return group;
            }
            if (group.check != null) {
              group.check.cancel(false);
            }
            return null;
          });
    }
  }

  /** The group's check: its oldest waiter polls; the next check follows one interval later. */
  private void check(String name, Group scheduled) {
    GrantSignal[] oldest = new GrantSignal[1];
    groups.computeIfPresent(
        name,
        (key, group) -> {
          if (group == scheduled && !group.queued.isEmpty()) {
            oldest[0] = group.queued.iterator().next();
            group.check = scheduleCheck(key, group);
          }
          return group;
        });
    if (oldest[0] != null) {
      oldest[0].nudge(true);
    }
  }

  /** The timer of the group's next check; null when the store needs none or the engine closed. */
  private ScheduledFuture<?> scheduleCheck(String name, Group group) {
    long interval = group.access.wakeUpCheckInterval().toNanos();
    if (interval <= 0) {
      return null;
    }
    try {
      return group.access.async().schedule(() -> check(name, group), interval);
    } catch (IllegalStateException | java.util.concurrent.RejectedExecutionException closed) {
      return null; // the engine closed: its waiters are failed, nobody needs the check
    }
  }

  @Override
  public void granted(long requestId, long fencingToken) {
    GrantSignal signal = waiting.get(requestId);
    if (signal != null) {
      signal.signal(fencingToken);
    }
  }

  /** Every waiter that trusted the store's wake-ups looks again: one may have been lost. */
  @Override
  public void wakeUpsChanged() {
    for (GrantSignal signal : waiting.values()) {
      signal.nudge(false);
    }
  }

  /** The store no longer knows this queued request (its lease was lost): its waiter asks. */
  public void askStore(long requestId) {
    GrantSignal signal = waiting.get(requestId);
    if (signal != null) {
      signal.nudge(true);
    }
  }

  /** How many requests of this JVM are queued right now. */
  public int size() {
    return waiting.size();
  }
}
