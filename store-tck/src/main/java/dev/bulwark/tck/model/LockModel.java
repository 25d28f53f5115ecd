package dev.bulwark.tck.model;

import dev.bulwark.LockMode;
import dev.bulwark.spi.Outcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link dev.bulwark.spi.LockStore} promises as the simplest program that keeps them: per key,
 * one writer or many readers, and a first-come, first-served queue whose head is granted as soon as
 * it is compatible with the holders, so a queued writer holds back the readers behind it. Fencing
 * tokens are the store's to choose; the model only remembers which grant is a write.
 */
public final class LockModel {

  private final Map<String, Key> keys = new HashMap<>();
  private final Set<Caller> everQueued = new LinkedHashSet<>();
  private final Set<Caller> gone = new LinkedHashSet<>();

  public Outcome acquire(String key, Caller caller, LockMode mode, boolean mayQueue) {
    Key state = key(key);
    if (state.queue.isEmpty() && state.compatible(mode)) {
      state.take(caller, mode);
      return Outcome.GRANTED;
    }
    if (!mayQueue) {
      gone.add(caller);
      return Outcome.REJECTED;
    }
    state.queue.put(caller, mode);
    everQueued.add(caller);
    return Outcome.QUEUED;
  }

  /** What a poll of a request that was queued answers: queued still, or granted. */
  public Outcome poll(String key, Caller caller) {
    Key state = key(key);
    if (state.queue.containsKey(caller)) {
      return Outcome.QUEUED;
    }
    if (state.holds(caller)) {
      return Outcome.GRANTED;
    }
    throw new IllegalArgumentException(caller + " neither waits for nor holds " + key);
  }

  /**
   * Withdraws a queued request (which may let the readers behind a withdrawn writer in); a request
   * granted meanwhile keeps its lock.
   *
   * @return the outcome and the requests the withdrawal let in, in order
   */
  public Step cancel(String key, Caller caller) {
    Key state = key(key);
    if (state.queue.remove(caller) != null) {
      gone.add(caller);
      return new Step(Outcome.REJECTED, state.grantFromQueue());
    }
    return new Step(poll(key, caller), List.of());
  }

  /**
   * Releases {@code caller}'s lock of {@code key} and grants what the head of the queue allows.
   *
   * @return whether it was held ({@link Outcome#GRANTED}, else {@link Outcome#REJECTED}) and the
   *     requests let in, in order
   */
  public Step release(String key, Caller caller) {
    Key state = key(key);
    boolean held = state.release(caller);
    if (held) {
      gone.add(caller);
    }
    return new Step(held ? Outcome.GRANTED : Outcome.REJECTED, state.grantFromQueue());
  }

  /** An outcome and the queued requests it let in. */
  public record Step(Outcome outcome, List<Grantee> granted) {}

  /** A queued request let in, and in which mode. */
  public record Grantee(Caller caller, LockMode mode) {}

  public Optional<Caller> writer(String key) {
    return Optional.ofNullable(key(key).writer);
  }

  public List<Caller> readers(String key) {
    return List.copyOf(key(key).readers);
  }

  public int queued(String key) {
    return key(key).queue.size();
  }

  /** The mode {@code caller} asked for on {@code key}, while it waits or holds. */
  public LockMode modeOf(String key, Caller caller) {
    Key state = key(key);
    if (caller.equals(state.writer)) {
      return LockMode.WRITE;
    }
    if (state.readers.contains(caller)) {
      return LockMode.READ;
    }
    LockMode queued = state.queue.get(caller);
    if (queued == null) {
      throw new IllegalArgumentException(caller + " neither waits for nor holds " + key);
    }
    return queued;
  }

  /** The holders of {@code key}. */
  public List<Caller> holders(String key) {
    Key state = key(key);
    List<Caller> holders = new ArrayList<>(state.readers);
    if (state.writer != null) {
      holders.add(state.writer);
    }
    return holders;
  }

  /** Requests of {@code key} that were queued and wait or hold still: poll and cancel apply. */
  public List<Caller> waitingOrGranted(String key) {
    Key state = key(key);
    return everQueued.stream().filter(c -> state.queue.containsKey(c) || state.holds(c)).toList();
  }

  /** Requests that hold nothing any more (released, withdrawn or rejected). */
  public List<Caller> gone() {
    return List.copyOf(gone);
  }

  private Key key(String key) {
    return keys.computeIfAbsent(key, k -> new Key());
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("locks(");
    keys.forEach(
        (name, state) ->
            text.append(name)
                .append(": writer ")
                .append(state.writer)
                .append(", readers ")
                .append(state.readers)
                .append(", queue ")
                .append(state.queue)
                .append("; "));
    return text.append(")").toString();
  }

  /** One key: its holders and its queue. */
  private static final class Key {
    Caller writer;
    final Set<Caller> readers = new LinkedHashSet<>();
    final LinkedHashMap<Caller, LockMode> queue = new LinkedHashMap<>();

    boolean compatible(LockMode mode) {
      return writer == null && (mode == LockMode.READ || readers.isEmpty());
    }

    void take(Caller caller, LockMode mode) {
      if (mode == LockMode.WRITE) {
        writer = caller;
      } else {
        readers.add(caller);
      }
    }

    boolean holds(Caller caller) {
      return caller.equals(writer) || readers.contains(caller);
    }

    boolean release(Caller caller) {
      if (caller.equals(writer)) {
        writer = null;
        return true;
      }
      return readers.remove(caller);
    }

    List<Grantee> grantFromQueue() {
      List<Grantee> granted = new ArrayList<>();
      var head = queue.entrySet().iterator();
      while (head.hasNext()) {
        Map.Entry<Caller, LockMode> next = head.next();
        if (!compatible(next.getValue())) {
          break;
        }
        head.remove();
        take(next.getKey(), next.getValue());
        granted.add(new Grantee(next.getKey(), next.getValue()));
      }
      return granted;
    }
  }
}
