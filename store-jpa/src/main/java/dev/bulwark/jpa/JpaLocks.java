package dev.bulwark.jpa;

import dev.bulwark.Holder;
import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.jpa.entity.ClaimRow;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import java.util.List;
import java.util.Optional;

/**
 * Keyed read-write locks on the claim table: per key many readers or one writer, requests served
 * first come, first served (a queued writer holds back later readers). A write grant takes the next
 * token of the name's counter on the limit row, which is never deleted, so tokens keep growing
 * after a key's rows are gone; a reader carries the token of its key's last write while the key has
 * rows, else the name's latest token.
 */
final class JpaLocks implements LockStore {

  private static final String READ = "R";
  private static final String WRITE = "W";

  private final StoreCore core;
  private final Inspection inspection;

  JpaLocks(StoreCore core, Inspection inspection) {
    this.core = core;
    this.inspection = inspection;
  }

  @Override
  public Grant acquire(LockSpec spec, String key, LockMode mode, long requestId, boolean mayQueue) {
    return core.step(
        "acquire a lock",
        StoreCore.LOCKS,
        spec.name(),
        key,
        requestId,
        step -> {
          grantFromQueue(step);
          Claim mine = step.mine(requestId);
          if (mine != null) {
            return mine.held() ? Grant.granted(mine.token()) : Grant.QUEUED;
          }
          String wanted = mode == LockMode.WRITE ? WRITE : READ;
          if (step.queue().isEmpty() && compatible(step, wanted)) {
            long token = take(step, wanted);
            step.add(requestId, wanted, spec.leaseMillis(), true, token);
            return Grant.granted(token);
          }
          if (!mayQueue) {
            return Grant.REJECTED;
          }
          step.add(requestId, wanted, spec.leaseMillis(), false, 0);
          return Grant.QUEUED;
        });
  }

  @Override
  public Grant poll(LockSpec spec, String key, long requestId) {
    return core.step(
        "poll a lock",
        StoreCore.LOCKS,
        spec.name(),
        key,
        requestId,
        step -> {
          grantFromQueue(step);
          Claim mine = step.mine(requestId);
          if (mine == null) {
            return Grant.REJECTED;
          }
          return mine.held() ? Grant.granted(mine.token()) : Grant.QUEUED;
        });
  }

  @Override
  public Grant cancel(LockSpec spec, String key, long requestId) {
    return core.step(
        "cancel a lock request",
        StoreCore.LOCKS,
        spec.name(),
        key,
        requestId,
        step -> {
          Claim mine = step.mine(requestId);
          if (mine != null && !mine.held()) {
            step.remove(mine);
            mine = null;
          }
          // a withdrawn writer at the head may have been holding readers back
          grantFromQueue(step);
          return mine == null ? Grant.REJECTED : Grant.granted(mine.token());
        });
  }

  @Override
  public boolean release(LockSpec spec, String key, long requestId) {
    return core.step(
        "release a lock",
        StoreCore.LOCKS,
        spec.name(),
        key,
        requestId,
        step -> {
          Claim mine = step.mine(requestId);
          boolean held = mine != null && mine.held();
          if (held) {
            step.remove(mine);
          }
          grantFromQueue(step);
          return held;
        });
  }

  @Override
  public LockKeySnapshot inspect(LockSpec spec, String key) {
    List<ClaimRow> live =
        inspection.liveClaims("inspect a lock", StoreCore.LOCKS, spec.name(), key);
    Optional<Holder> writer =
        live.stream()
            .filter(row -> row.held() && row.mode().equals(WRITE))
            .map(Inspection::holder)
            .findFirst();
    List<Holder> readers =
        live.stream()
            .filter(row -> row.held() && row.mode().equals(READ))
            .map(Inspection::holder)
            .toList();
    int queued = (int) live.stream().filter(row -> !row.held()).count();
    return new LockKeySnapshot(spec.name(), key, writer, readers, queued);
  }

  /** Grants from the head of the queue while the head is compatible; no overtaking. */
  private static void grantFromQueue(Step step) {
    for (Claim queued : step.queue()) {
      if (!compatible(step, queued.mode())) {
        return;
      }
      step.handOver(queued, take(step, queued.mode()));
    }
  }

  private static boolean compatible(Step step, String mode) {
    boolean anyHolder = false;
    for (Claim holder : step.holders()) {
      if (holder.mode().equals(WRITE)) {
        return false;
      }
      anyHolder = true;
    }
    return mode.equals(READ) || !anyHolder;
  }

  private static long take(Step step, String mode) {
    if (mode.equals(WRITE)) {
      long token = step.nextFencingToken();
      step.wrote(token);
      return token;
    }
    return step.lastToken() != 0 ? step.lastToken() : step.fencing();
  }
}
