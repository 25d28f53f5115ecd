package dev.bulwark.jpa;

import dev.bulwark.jpa.entity.RowIds;
import java.util.ArrayList;
import java.util.List;

/**
 * The requests of a bulkhead or a lock key as the operations of one transaction, which locked the
 * limit's row, see and change them one after another: the live requests in arrival order (expired
 * ones are deleted, which is how a lease runs out), the changes to write when the step ends, and
 * the hand-overs made, to be told after the commit. A request granted at once takes no arrival
 * number (only the queue is ordered), so a transaction that moves neither of the name's {@link
 * LimitCounters} leaves the limit's row as it was.
 */
final class Step {

  private final String limitId;
  private final String keyHash;
  private final String instance;
  private final long nowMicros;
  private final LimitCounters counters;
  private final List<Claim> live = new ArrayList<>();
  private final List<Claim> deleted = new ArrayList<>();
  private final List<Claim> added = new ArrayList<>();
  private final List<Claim> handedOver = new ArrayList<>();
  private long lastToken;
  private boolean operated;

  /**
   * @param counters the name's counters, shared with the steps on its other keys in the same
   *     transaction
   * @param claims the key's rows in arrival order, expired ones included
   */
  Step(
      String limitId,
      String keyHash,
      String instance,
      long nowMicros,
      LimitCounters counters,
      List<Claim> claims) {
    this.limitId = limitId;
    this.keyHash = keyHash;
    this.instance = instance;
    this.nowMicros = nowMicros;
    this.counters = counters;
    for (Claim claim : claims) {
      // every holder of a key carries the token of its last write, expired ones included
      lastToken = Math.max(lastToken, claim.token());
      if (claim.liveAt(nowMicros)) {
        live.add(claim);
      } else {
        deleted.add(claim);
      }
    }
  }

  /**
   * Starts the next operation of the transaction on this key. The first sees the rows as read,
   * expired ones included; a later one sees the key as the operations before it left it, as it
   * would in a transaction of its own after theirs committed: the expired rows and the requests
   * released or cancelled are gone, so the key's last write token is that of the rows still there.
   */
  void beginOperation() {
    if (operated) {
      lastToken = 0;
      for (Claim claim : live) {
        lastToken = Math.max(lastToken, claim.token());
      }
    }
    operated = true;
  }

  /** The name's counters, which this step shares with the steps on its other keys. */
  LimitCounters counters() {
    return counters;
  }

  /** The last write token given out under the limit's name. */
  long fencing() {
    return counters.fencing();
  }

  /** Takes the name's next write token, which the step's end writes to the limit's row. */
  long nextFencingToken() {
    return counters.nextFencingToken();
  }

  /** The token of the key's last write while the key has rows, else 0. */
  long lastToken() {
    return lastToken;
  }

  void wrote(long token) {
    lastToken = token;
  }

  /**
   * The live request {@code requestId} of this JVM, or null. The caller learns of a grant from its
   * answer, so a hand-over not yet told is not told again.
   */
  Claim mine(long requestId) {
    for (Claim claim : live) {
      if (claim.requestId() == requestId && claim.instance().equals(instance)) {
        if (claim.notice()) {
          claim.told();
        }
        return claim;
      }
    }
    return null;
  }

  List<Claim> holders() {
    return live.stream().filter(Claim::held).toList();
  }

  /** The queued requests, oldest first. */
  List<Claim> queue() {
    return live.stream().filter(c -> !c.held()).toList();
  }

  /**
   * Adds a request of this JVM, as a holder with {@code token} or (held false) queued behind every
   * request queued so far.
   */
  void add(long requestId, String mode, long leaseMillis, boolean held, long token) {
    long leaseMicros = leaseMillis * 1000;
    // a holder is never ordered: it shares the number the next queued request takes
    long seq = held ? counters.nextSeq() : counters.takeSeq();
    Claim claim =
        Claim.request(
            RowIds.claim(limitId, keyHash, instance, requestId),
            instance,
            requestId,
            mode,
            seq,
            nowMicros + leaseMicros);
    if (held) {
      claim.hold(token, nowMicros, false);
    }
    added.add(claim);
    live.add(claim);
  }

  void remove(Claim claim) {
    live.remove(claim);
    if (!added.remove(claim)) {
      deleted.add(claim);
    }
  }

  /**
   * Grants a queued request; its JVM is told after the commit. The grant keeps the lease the
   * request had while queued, which its JVM renews while the caller waits: a request whose caller
   * gave up (its cancel lost in an outage) holds the permit only until then, not a lease more.
   */
  void handOver(Claim queued, long token) {
    queued.hold(token, nowMicros, !queued.instance().equals(instance));
    handedOver.add(queued);
  }

  /** The hand-overs this step made, in order. */
  List<Claim> handedOver() {
    return handedOver;
  }

  /**
   * The statements that write what this step changed of the key's claims, none when it changed
   * nothing; the name's counters are written once for all keys ({@link LimitCounters#writes}).
   */
  List<Sql> writes(ClaimSql sql) {
    List<Sql> writes = new ArrayList<>();
    if (!deleted.isEmpty()) {
      writes.add(sql.delete(deleted));
    }
    for (Claim claim : live) {
      if (claim.changed() && !added.contains(claim)) {
        writes.add(sql.update(claim));
      }
    }
    for (Claim claim : added) {
      writes.add(sql.insert(limitId, keyHash, claim));
    }
    return writes;
  }
}
