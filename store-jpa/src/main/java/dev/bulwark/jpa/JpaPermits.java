package dev.bulwark.jpa;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.jpa.entity.ClaimRow;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Bulkheads on the claim table: at most {@code limit} live holders per name, queued requests
 * granted first come, first served, and every release, poll or cancel hands free permits (freed by
 * it or by expired holders) to the head of the queue in the same transaction. A single call is a
 * batch of one operation: one rule per kind of operation, whether it comes alone or with others.
 */
final class JpaPermits implements PermitStore {

  private static final String PERMIT = "P";

  private final StoreCore core;
  private final Definitions definitions;
  private final Inspection inspection;
  private final LostBatches lostBatches;

  JpaPermits(
      StoreCore core, Definitions definitions, Inspection inspection, LostBatches lostBatches) {
    this.core = core;
    this.definitions = definitions;
    this.inspection = inspection;
    this.lostBatches = lostBatches;
  }

  @Override
  public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
    return one(spec, Operation.acquire(requestId, mayQueue));
  }

  @Override
  public Grant poll(PermitSpec spec, long requestId) {
    return one(spec, Operation.poll("", requestId));
  }

  @Override
  public Grant cancel(PermitSpec spec, long requestId) {
    return one(spec, Operation.cancel("", requestId));
  }

  @Override
  public boolean release(PermitSpec spec, long requestId) {
    return one(spec, Operation.release("", requestId)).isGranted();
  }

  /**
   * One transaction under the bulkhead's row lock applies the operations in order, each by the rule
   * of its single call; the whole batch runs again after a conflict, each operation being
   * idempotent.
   */
  @Override
  public List<Grant> apply(PermitSpec spec, List<Operation> operations) {
    Objects.requireNonNull(spec, "PermitStore.apply: spec is null");
    Objects.requireNonNull(operations, "PermitStore.apply: operations is null");
    List<StepOperation<Grant>> steps = new ArrayList<>(operations.size());
    for (Operation operation : operations) {
      if (operation == null) {
        throw new NullPointerException(
            "PermitStore.apply: an operation on bulkhead '" + spec.name() + "' is null");
      }
      // a bulkhead has one queue: an operation's key, if any, does not choose it
      steps.add(
          new StepOperation<>("", operation.requestId(), step -> rule(spec, operation, step)));
    }
    String what =
        operations.size() == 1
            ? describe(operations.get(0).kind())
            : "apply " + operations.size() + " operations on a bulkhead";
    try {
      return core.apply(what, StoreCore.PERMITS, spec.name(), steps);
    } catch (StoreException e) {
      lostBatches.failed(e, operations, spec.leaseMillis(), giveUp -> apply(spec, giveUp));
      throw e;
    }
  }

  private Grant one(PermitSpec spec, Operation operation) {
    return apply(spec, List.of(operation)).get(0);
  }

  private static String describe(Operation.Kind kind) {
    return switch (kind) {
      case ACQUIRE -> "acquire a permit";
      case POLL -> "poll a permit";
      case CANCEL -> "cancel a permit request";
      case RELEASE -> "release a permit";
    };
  }

  /**
   * What one operation does on the bulkhead's step, as its single call does: a release answers
   * {@link Grant#GRANTED} when it released.
   */
  private static Grant rule(PermitSpec spec, Operation operation, Step step) {
    long requestId = operation.requestId();
    return switch (operation.kind()) {
      case ACQUIRE -> {
        handOver(step, spec);
        Claim mine = step.mine(requestId);
        if (mine != null) {
          yield mine.held() ? Grant.GRANTED : Grant.QUEUED;
        }
        if (step.queue().isEmpty() && step.holders().size() < spec.limit()) {
          step.add(requestId, PERMIT, spec.leaseMillis(), true, 0);
          yield Grant.GRANTED;
        }
        if (!operation.mayQueue()) {
          yield Grant.REJECTED;
        }
        step.add(requestId, PERMIT, spec.leaseMillis(), false, 0);
        yield Grant.QUEUED;
      }
      case POLL -> {
        handOver(step, spec);
        yield answer(step.mine(requestId));
      }
      case CANCEL -> {
        Claim mine = step.mine(requestId);
        if (mine != null && !mine.held()) {
          step.remove(mine);
          mine = null;
        }
        handOver(step, spec);
        yield mine == null ? Grant.REJECTED : Grant.GRANTED;
      }
      case RELEASE -> {
        Claim mine = step.mine(requestId);
        boolean held = mine != null && mine.held();
        if (held) {
          step.remove(mine);
        }
        handOver(step, spec);
        yield held ? Grant.GRANTED : Grant.REJECTED;
      }
    };
  }

  @Override
  public Optional<String> define(PermitSpec spec) {
    return definitions.record(StoreCore.PERMITS, spec.name(), spec.definition());
  }

  @Override
  public BulkheadSnapshot inspect(PermitSpec spec) {
    List<ClaimRow> live =
        inspection.liveClaims("inspect a bulkhead", StoreCore.PERMITS, spec.name(), "");
    return new BulkheadSnapshot(
        spec.name(),
        spec.limit(),
        live.stream().filter(ClaimRow::held).map(Inspection::holder).toList(),
        (int) live.stream().filter(row -> !row.held()).count(),
        live.stream()
            .filter(row -> !row.held())
            .limit(BulkheadSnapshot.WAITING_LISTED)
            .map(Inspection::holder)
            .toList());
  }

  private static Grant answer(Claim mine) {
    if (mine == null) {
      return Grant.REJECTED;
    }
    return mine.held() ? Grant.GRANTED : Grant.QUEUED;
  }

  /** Grants free permits to the head of the queue. */
  private static void handOver(Step step, PermitSpec spec) {
    int held = step.holders().size();
    for (Claim queued : step.queue()) {
      if (held >= spec.limit()) {
        return;
      }
      step.handOver(queued, 0);
      held++;
    }
  }
}
