package dev.bulwark.jpa;

import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.RateLimitType;
import dev.bulwark.core.rate.RateState;
import dev.bulwark.core.rate.RateStep;
import dev.bulwark.jpa.entity.LimitRow;
import dev.bulwark.jpa.entity.RateGrantRow;
import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.Optional;

/**
 * Rate limits as core's {@link RateState} arithmetic over state kept in the database, on the
 * database's clock in nanoseconds: SMOOTH and FIXED keep their two longs on the limit row, ROLLING
 * keeps its grant times as rows, deleting the ones that left the window and appending one per
 * grant.
 */
final class JpaRates implements RateStore {

  private final StoreCore core;
  private final Definitions definitions;

  JpaRates(StoreCore core, Definitions definitions) {
    this.core = core;
    this.definitions = definitions;
  }

  @Override
  public RateDecision reserve(RateSpec spec, long maxWaitNanos) {
    return core.transactions()
        .run(
            "reserve a rate permit",
            em -> {
              LimitRow limit = core.lockLimit(em, StoreCore.RATES, spec.name());
              long now = core.nowMicros(em) * 1000;
              List<RateGrantRow> log = log(em, limit);
              RateState state = stored(limit, log);
              RateStep step = state.reserve(spec, now, maxWaitNanos);
              store(em, limit, log, step);
              return step.decision();
            });
  }

  /**
   * Computes the permits left with the arithmetic of {@link #reserve} on the stored state, without
   * locking the limit's row and without storing anything; a limit never used has all its permits.
   */
  @Override
  public RateLimitSnapshot inspect(RateSpec spec) {
    int available =
        core.transactions()
            .run(
                "inspect a rate limit of " + spec.name(),
                em -> {
                  LimitRow limit =
                      em.find(LimitRow.class, RowIds.limit(StoreCore.RATES, spec.name()));
                  if (limit == null) {
                    return spec.permits();
                  }
                  long now = core.nowMicros(em) * 1000;
                  return stored(limit, log(em, limit)).available(spec, now);
                });
    return new RateLimitSnapshot(spec.name(), spec.permits(), available);
  }

  @Override
  public Optional<String> define(RateSpec spec) {
    return definitions.record(StoreCore.RATES, spec.name(), spec.definition());
  }

  private static List<RateGrantRow> log(EntityManager em, LimitRow limit) {
    if (!RateLimitType.ROLLING.name().equals(limit.rateType())) {
      return List.of();
    }
    return em.createQuery(
            "SELECT g FROM RateGrantRow g WHERE g.limitId = :limit ORDER BY g.seq",
            RateGrantRow.class)
        .setParameter("limit", limit.id())
        .getResultList();
  }

  private static RateState stored(LimitRow limit, List<RateGrantRow> log) {
    if (limit.rateType() == null) {
      return RateState.initial(RateLimitType.SMOOTH);
    }
    RateLimitType type = RateLimitType.valueOf(limit.rateType());
    if (type == RateLimitType.ROLLING) {
      return RateState.fromLongs(type, log.stream().mapToLong(RateGrantRow::grantedAt).toArray());
    }
    return RateState.fromLongs(type, new long[] {limit.rateFirst(), limit.rateSecond()});
  }

  private static void store(
      EntityManager em, LimitRow limit, List<RateGrantRow> log, RateStep step) {
    RateState next = step.next();
    long[] longs = next.toLongs();
    if (next.type() != RateLimitType.ROLLING) {
      log.forEach(em::remove);
      limit.rateState(next.type().name(), longs[0], longs[1]);
      return;
    }
    boolean appended = step.decision().granted();
    int kept = appended ? longs.length - 1 : longs.length;
    // the next log is the stored one without its oldest times, plus the new grant at the end
    for (RateGrantRow expired : log.subList(0, log.size() - kept)) {
      em.remove(expired);
    }
    if (appended) {
      em.persist(new RateGrantRow(limit.id(), limit.nextSeq(), longs[longs.length - 1]));
    }
    limit.rateState(RateLimitType.ROLLING.name(), 0, 0);
  }
}
