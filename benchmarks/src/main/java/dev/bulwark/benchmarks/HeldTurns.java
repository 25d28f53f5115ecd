package dev.bulwark.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * One caller taking turns at something scarce (a permit, a lock): from a start time until an end
 * time it asks, holds what it got for a fixed time, gives it back and asks again, and records each
 * turn on the host's one {@link System#nanoTime()} clock, so that the turns of several callers, in
 * several JVMs, can be merged.
 */
public final class HeldTurns {

  /** One turn: asked for, granted, given back. */
  public record Turn(long asked, long granted, long released) {}

  /** Takes the scarce thing; closing what it returns gives it back. */
  @FunctionalInterface
  public interface Take {
    AutoCloseable take() throws Exception;
  }

  private HeldTurns() {}

  /**
   * The turns taken from {@code start} until {@code end}; an interrupt ends them early (the turns
   * so far are returned, the interrupt kept).
   */
  public static List<Turn> run(Take take, long holdNanos, long start, long end) throws Exception {
    while (System.nanoTime() < start) {
      LockSupport.parkNanos(start - System.nanoTime());
    }
    List<Turn> turns = new ArrayList<>();
    try {
      while (System.nanoTime() < end) {
        long asked = System.nanoTime();
        AutoCloseable held = take.take();
        long granted = System.nanoTime();
        LockSupport.parkNanos(holdNanos);
        long released = System.nanoTime();
        held.close();
        turns.add(new Turn(asked, granted, released));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return turns;
  }
}
