package dev.bulwark.jpa.modelcheck;

import dev.bulwark.tck.modelcheck.StoreContents;
import dev.bulwark.tck.modelcheck.Times;
import dev.bulwark.tck.modelcheck.WakeUp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JPA store's side of one state: the limit's row (its fencing and arrival counters) and the
 * claim rows of the bulkhead or the lock key, in arrival order, as the check's own connection reads
 * them, with the hand-overs the JVMs' listeners were told of since the last read. Expiries are kept
 * as the tables hold them (microseconds) and answered in milliseconds, the model's unit.
 *
 * @param told the listener calls since the last read, by request (0-based) and token, each JVM's in
 *     the order it heard them
 */
record JpaStoreContents(List<LimitState> limits, List<ClaimState> claims, List<WakeUp> told)
    implements StoreContents {

  static final JpaStoreContents EMPTY = new JpaStoreContents(List.of(), List.of(), List.of());

  /** A row of the limit table, as far as bulkheads and locks use it. */
  record LimitState(String id, String kind, String name, long fencing, long nextSeq) {}

  /** A row of the claim table. */
  record ClaimState(
      String id,
      String limitId,
      String keyHash,
      String instance,
      long requestId,
      String mode,
      boolean held,
      long seq,
      long expiresAt,
      long grantedAt,
      long token,
      boolean notice) {

    String member() {
      return instance + ":" + requestId;
    }

    long expiresMillis() {
      return expiresAt / 1000;
    }

    boolean liveAt(long nowMillis) {
      return expiresMillis() > nowMillis;
    }

    boolean writes() {
      return held && mode.equals("W");
    }
  }

  JpaStoreContents {
    limits = List.copyOf(limits);
    claims = List.copyOf(claims);
    told = List.copyOf(told);
  }

  @Override
  public Map<String, Long> holders() {
    Map<String, Long> holders = new TreeMap<>();
    for (ClaimState claim : claims) {
      if (claim.held() && !claim.writes()) {
        holders.put(claim.member(), claim.expiresMillis());
      }
    }
    return holders;
  }

  @Override
  public List<String> queue() {
    return claims.stream().filter(c -> !c.held()).map(ClaimState::member).toList();
  }

  @Override
  public List<String> liveHolders(long now) {
    return claims.stream()
        .filter(c -> c.held() && !c.writes() && c.liveAt(now))
        .map(ClaimState::member)
        .toList();
  }

  @Override
  public String liveWriter(long now) {
    ClaimState writer = writerClaim();
    return writer != null && writer.liveAt(now) ? writer.member() : null;
  }

  @Override
  public String writer() {
    ClaimState writer = writerClaim();
    return writer == null ? null : writer.member();
  }

  @Override
  public Long writerToken() {
    ClaimState writer = writerClaim();
    return writer == null ? null : writer.token();
  }

  private ClaimState writerClaim() {
    return claims.stream().filter(ClaimState::writes).findFirst().orElse(null);
  }

  @Override
  public Long heldUntil(String member) {
    return claims.stream()
        .filter(c -> c.held() && c.member().equals(member))
        .map(ClaimState::expiresMillis)
        .findFirst()
        .orElse(null);
  }

  @Override
  public List<Waiter> liveWaiters(long now) {
    return claims.stream()
        .filter(c -> !c.held() && c.liveAt(now))
        .map(c -> new Waiter(c.member(), c.mode()))
        .toList();
  }

  @Override
  public Long waitingUntil(String member) {
    return claims.stream()
        .filter(c -> !c.held() && c.member().equals(member))
        .map(ClaimState::expiresMillis)
        .findFirst()
        .orElse(null);
  }

  @Override
  public Long fence() {
    return limits.isEmpty() ? null : limits.get(0).fencing();
  }

  /** Rows do not expire on their own: a step or the cleanup task deletes them ({@code ownWork}). */
  @Override
  public List<String> present() {
    return List.of();
  }

  @Override
  public boolean sameKeys(StoreContents other) {
    JpaStoreContents jpa = (JpaStoreContents) other;
    return limits.equals(jpa.limits) && claims.equals(jpa.claims);
  }

  /** Whether a claim's lease has run out at {@code now}: the cleanup task would delete it. */
  boolean anyExpired(long now) {
    return claims.stream().anyMatch(c -> !c.liveAt(now));
  }

  /** Whether a hand-over to {@code instance} is marked and not yet told. */
  boolean noticeFor(String instance) {
    return claims.stream().anyMatch(c -> c.notice() && c.instance().equals(instance));
  }

  /**
   * What the steps can still tell apart, relative to {@code now}: expiries as time ahead or passed;
   * holders as a set, the queue in arrival order (the arrival numbers themselves only order it);
   * tokens (none for a permit) relative to the fencing counter, which only ever grows by one; when
   * a claim was granted (read by inspection alone) left out.
   */
  @Override
  public String canonical(long now) {
    StringBuilder out = new StringBuilder();
    long fencing = limits.isEmpty() ? 0 : limits.get(0).fencing();
    out.append(limits.isEmpty() ? "-" : "L").append('|');
    List<ClaimState> held = new ArrayList<>(claims.stream().filter(ClaimState::held).toList());
    held.sort(Comparator.comparing(ClaimState::member));
    for (ClaimState claim : held) {
      out.append(claim.member())
          .append(claim.mode())
          .append(Times.ahead(claim.expiresMillis(), now))
          .append(claim.token() == 0 ? "" : "t" + (fencing - claim.token()))
          .append(claim.notice() ? "n" : "")
          .append(',');
    }
    out.append('|');
    for (ClaimState claim : claims) {
      if (!claim.held()) {
        out.append(claim.member())
            .append(claim.mode())
            .append(Times.ahead(claim.expiresMillis(), now))
            .append(',');
      }
    }
    return out.toString();
  }
}
