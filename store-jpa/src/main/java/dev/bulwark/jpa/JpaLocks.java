package dev.bulwark.jpa;

import dev.bulwark.Holder;
import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.jpa.entity.ClaimRow;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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
  private final LostBatches lostBatches;

  JpaLocks(StoreCore core, Inspection inspection, LostBatches lostBatches) {
    this.core = core;
    this.inspection = inspection;
    this.lostBatches = lostBatches;
  }

  @Override
  public Grant acquire(LockSpec spec, String key, LockMode mode, long requestId, boolean mayQueue) {
    return one(spec, Operation.acquire(key, mode, requestId, mayQueue));
  }

  @Override
  public Grant poll(LockSpec spec, String key, long requestId) {
    return one(spec, Operation.poll(key, requestId));
  }

  @Override
  public Grant cancel(LockSpec spec, String key, long requestId) {
    return one(spec, Operation.cancel(key, requestId));
  }

  @Override
  public boolean release(LockSpec spec, String key, long requestId) {
    return one(spec, Operation.release(key, requestId)).isGranted();
  }

  /**
   * One transaction under the lock name's row lock applies the operations in order, each by the
   * rule of its single call on the step of its key (one step per key, all read together); the whole
   * batch runs again after a conflict, each operation being idempotent.
   */
  @Override
  public List<Grant> apply(LockSpec spec, List<Operation> operations) {
    Objects.requireNonNull(spec, "LockStore.apply: spec is null");
    Objects.requireNonNull(operations, "LockStore.apply: operations is null");
    List<StepOperation<Grant>> steps = new ArrayList<>(operations.size());
    for (Operation operation : operations) {
      if (operation == null || operation.key() == null) {
        throw new NullPointerException(
            "LockStore.apply: an operation on lock '"
                + spec.name()
                + "' is null or has no key: "
                + operation);
      }
      steps.add(
          new StepOperation<>(
              operation.key(), operation.requestId(), step -> rule(spec, operation, step)));
    }
    String what =
        operations.size() == 1
            ? describe(operations.get(0).kind())
            : "apply " + operations.size() + " operations on a lock";
    try {
      return core.apply(what, StoreCore.LOCKS, spec.name(), steps);
    } catch (StoreException e) {
      lostBatches.failed(e, operations, spec.leaseMillis(), giveUp -> apply(spec, giveUp));
      throw e;
    }
  }

  private Grant one(LockSpec spec, Operation operation) {
    return apply(spec, List.of(operation)).get(0);
  }

  private static String describe(Operation.Kind kind) {
    return switch (kind) {
      case ACQUIRE -> "acquire a lock";
      case POLL -> "poll a lock";
      case CANCEL -> "cancel a lock request";
      case RELEASE -> "release a lock";
    };
  }

  /**
   * What one operation does on its key's step, as its single call does: a release answers {@link
   * Grant#GRANTED} when it released.
   */
  private static Grant rule(LockSpec spec, Operation operation, Step step) {
    long requestId = operation.requestId();
    return switch (operation.kind()) {
      case ACQUIRE -> {
        grantFromQueue(step);
        Claim mine = step.mine(requestId);
        if (mine != null) {
          yield mine.held() ? Grant.granted(mine.token()) : Grant.QUEUED;
        }
        String wanted = operation.mode() == LockMode.WRITE ? WRITE : READ;
        if (step.queue().isEmpty() && compatible(step, wanted)) {
          long token = take(step, wanted);
          step.add(requestId, wanted, spec.leaseMillis(), true, token);
          yield Grant.granted(token);
        }
        if (!operation.mayQueue()) {
          yield Grant.REJECTED;
        }
        step.add(requestId, wanted, spec.leaseMillis(), false, 0);
        yield Grant.QUEUED;
      }
      case POLL -> {
        grantFromQueue(step);
        Claim mine = step.mine(requestId);
        if (mine == null) {
          yield Grant.REJECTED;
        }
        yield mine.held() ? Grant.granted(mine.token()) : Grant.QUEUED;
      }
      case CANCEL -> {
        Claim mine = step.mine(requestId);
        if (mine != null && !mine.held()) {
          step.remove(mine);
          mine = null;
        }
        // a withdrawn writer at the head may have been holding readers back
        grantFromQueue(step);
        yield mine == null ? Grant.REJECTED : Grant.granted(mine.token());
      }
      case RELEASE -> {
        Claim mine = step.mine(requestId);
        boolean held = mine != null && mine.held();
        if (held) {
          step.remove(mine);
        }
        grantFromQueue(step);
        yield held ? Grant.GRANTED : Grant.REJECTED;
      }
    };
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
