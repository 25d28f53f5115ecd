package dev.bulwark.tck.modelcheck;

import java.util.List;
import java.util.Map;

/**
 * The store's side of one state, as its {@link StoreDriver} read it: holders (for a lock key, its
 * readers) and the writer with their lease expiries, the queue and the waiters' entries, the
 * fencing counter. Expiries are in milliseconds of the store's clock. Immutable.
 */
public interface StoreContents {

  /** A queued request whose entry is live: the member, and the mode it waits for (P, R or W). */
  record Waiter(String member, String mode) {}

  /** Permit holders, or a lock key's readers, with their lease expiries; expired ones included. */
  Map<String, Long> holders();

  /** The queued members in queue order, expired entries included. */
  List<String> queue();

  /** Holders whose lease runs past {@code now}. */
  List<String> liveHolders(long now);

  /** The lock's writer while its lease runs, else null. */
  String liveWriter(long now);

  /** The lock's writer, its lease run out or not; null when there is none. */
  String writer();

  /** The lease expiry the store holds for {@code member}, held or written, or null. */
  Long heldUntil(String member);

  /** Queued requests with live entries, in queue order. */
  List<Waiter> liveWaiters(long now);

  /** The lease expiry of a waiter's entry, or null. */
  Long waitingUntil(String member);

  /** The fencing counter, or null when there is none. */
  Long fence();

  /** The writer's fencing token, or null when there is no writer. */
  default Long writerToken() {
    return writer() == null ? null : fence();
  }

  /** The structures that exist and may expire on their own (none for a store without expiry). */
  List<String> present();

  /** Whether the store keeps the same as {@code other} (the wake-ups aside). */
  boolean sameKeys(StoreContents other);

  /**
   * Everything the store can still tell apart, relative to {@code now}: two states with the same
   * canonical form (and the same callers) have the same futures.
   */
  String canonical(long now);
}
