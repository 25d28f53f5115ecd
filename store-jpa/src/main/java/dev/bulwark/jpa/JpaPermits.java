package dev.bulwark.jpa;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.jpa.entity.ClaimRow;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import java.util.List;
import java.util.Optional;

/**
 * Bulkheads on the claim table: at most {@code limit} live holders per name, queued requests
 * granted first come, first served, and every release, poll or cancel hands free permits (freed by
 * it or by expired holders) to the head of the queue in the same transaction.
 */
final class JpaPermits implements PermitStore {

  private static final String PERMIT = "P";

  private final StoreCore core;
  private final Definitions definitions;
  private final Inspection inspection;

  JpaPermits(StoreCore core, Definitions definitions, Inspection inspection) {
    this.core = core;
    this.definitions = definitions;
    this.inspection = inspection;
  }

  @Override
  public Grant acquire(PermitSpec spec, long requestId, boolean mayQueue) {
    return core.step(
        "acquire a permit",
        StoreCore.PERMITS,
        spec.name(),
        "",
        requestId,
        step -> {
          handOver(step, spec);
          Claim mine = step.mine(requestId);
          if (mine != null) {
            return mine.held() ? Grant.GRANTED : Grant.QUEUED;
          }
          if (step.queue().isEmpty() && step.holders().size() < spec.limit()) {
            step.add(requestId, PERMIT, spec.leaseMillis(), true, 0);
            return Grant.GRANTED;
          }
          if (!mayQueue) {
            return Grant.REJECTED;
          }
          step.add(requestId, PERMIT, spec.leaseMillis(), false, 0);
          return Grant.QUEUED;
        });
  }

  @Override
  public Grant poll(PermitSpec spec, long requestId) {
    return core.step(
        "poll a permit",
        StoreCore.PERMITS,
        spec.name(),
        "",
        requestId,
        step -> {
          handOver(step, spec);
          return answer(step.mine(requestId));
        });
  }

  @Override
  public Grant cancel(PermitSpec spec, long requestId) {
    return core.step(
        "cancel a permit request",
        StoreCore.PERMITS,
        spec.name(),
        "",
        requestId,
        step -> {
          Claim mine = step.mine(requestId);
          if (mine != null && !mine.held()) {
            step.remove(mine);
            mine = null;
          }
          handOver(step, spec);
          return mine == null ? Grant.REJECTED : Grant.GRANTED;
        });
  }

  @Override
  public boolean release(PermitSpec spec, long requestId) {
    return core.step(
        "release a permit",
        StoreCore.PERMITS,
        spec.name(),
        "",
        requestId,
        step -> {
          Claim mine = step.mine(requestId);
          boolean held = mine != null && mine.held();
          if (held) {
            step.remove(mine);
          }
          handOver(step, spec);
          return held;
        });
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
        (int) live.stream().filter(row -> !row.held()).count());
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
