package dev.bulwark.jpa;

import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.RateLimitType;
import dev.bulwark.core.rate.RateState;
import dev.bulwark.core.rate.ReservationOutcome;
import dev.bulwark.core.rate.RollingStep;
import dev.bulwark.core.rate.RollingWindowState;
import dev.bulwark.jpa.ReservationBatches.Reservation;
import dev.bulwark.jpa.entity.LimitRow;
import dev.bulwark.jpa.entity.RateGrantRow;
import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Rate limits as core's {@link RateState} arithmetic over state kept in the database, on the
 * database's clock in nanoseconds: SMOOTH and FIXED keep their two longs on the limit row, ROLLING
 * keeps its grant times as rows ({@link RollingLog}): a reservation reads the few rows core's
 * rolling step asks for, deletes the ones that left the window by one range and appends one per
 * grant, so it costs what expired plus O(1) rows however long the log.
 *
 * <p>SMOOTH and FIXED reservations of this JVM's callers that come together are decided together
 * ({@link ReservationBatches}), optimistically first ({@link RateRow}): the state and the clock are
 * read without a lock, rejections write nothing, and grants swap the state only if no other JVM
 * changed it since. So no call holds the limit's row while its JVM computes, and one slow JVM
 * cannot hold up the others. A batch that loses the swap {@link #OPTIMISTIC_ATTEMPTS} times, a
 * limit without a row or state yet, and every ROLLING reservation take the locked path: lock the
 * row, then read the clock, decide and write, so that a JVM that keeps losing still gets its turn.
 */
final class JpaRates implements RateStore {

  /** Swaps a batch may lose to other JVMs before it takes the locked path. */
  static final int OPTIMISTIC_ATTEMPTS = 50;

  private final StoreCore core;
  private final Definitions definitions;
  private final ReservationBatches batches = new ReservationBatches(this::decide);

  JpaRates(StoreCore core, Definitions definitions) {
    this.core = core;
    this.definitions = definitions;
  }

  @Override
  public RateDecision reserve(RateSpec spec, long maxWaitNanos) {
    if (spec.type() != RateLimitType.ROLLING) {
      return batches.reserve(spec, maxWaitNanos);
    }
    return core.transactions()
        .run(
            "reserve a rate permit",
            em -> {
              LimitRow limit = core.lockLimit(em, StoreCore.RATES, spec.name());
              long now = core.nowMicros(em) * 1000;
              RollingLog log = RollingLog.of(em, limit);
              RollingStep step = RollingWindowState.step(log, spec, now, maxWaitNanos);
              log.apply(step);
              return step.decision();
            });
  }

  /** Decides a batch of SMOOTH or FIXED reservations on one limit: optimistically, else locked. */
  private List<RateDecision> decide(List<Reservation> batch) {
    String name = batch.get(0).spec().name();
    String id = RowIds.limit(StoreCore.RATES, name);
    for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
      Attempt outcome =
          core.transactions()
              .run("reserve rate permits of " + name, em -> optimistic(em, id, batch));
      if (outcome.decisions() != null) {
        return outcome.decisions();
      }
      if (outcome.lockNeeded()) {
        break;
      }
    }
    return core.transactions()
        .run(
            "reserve rate permits of " + name,
            em -> {
              LimitRow limit = core.lockLimit(em, StoreCore.RATES, name);
              long now = core.nowMicros(em) * 1000;
              List<RateGrantRow> log = log(em, limit);
              Decided decided = Decided.of(stored(limit, log), now, batch);
              // the batch's limits are SMOOTH or FIXED: a ROLLING log left by a former definition
              // goes
              log.forEach(em::remove);
              long[] longs = decided.next().toLongs();
              limit.rateState(decided.next().type().name(), longs[0], longs[1]);
              return decided.decisions();
            });
  }

  private Attempt optimistic(EntityManager em, String id, List<Reservation> batch) {
    RateRow row = core.statements(em).rateRow();
    RateRow.Stored stored = row.read(em, id);
    if (stored == null) {
      return Attempt.LOCK;
    }
    Decided decided = Decided.of(stored.state(), stored.nowNanos(), batch);
    if (decided.next().equals(stored.state())) {
      // rejections only: decided on a state that was current when read, nothing to write
      return new Attempt(decided.decisions(), false);
    }
    if (row.swap(em, id, stored.state(), decided.next())) {
      return new Attempt(decided.decisions(), false);
    }
    return Attempt.LOST;
  }

  /**
   * How an optimistic attempt ended: with the decisions, or without because another JVM changed the
   * state first (run again) or because the limit needs the locked path.
   */
  private record Attempt(List<RateDecision> decisions, boolean lockNeeded) {
    static final Attempt LOST = new Attempt(null, false);
    static final Attempt LOCK = new Attempt(null, true);
  }

  /**
   * A batch's reservations taken one after another from a state at one time, and the state left.
   */
  private record Decided(List<RateDecision> decisions, RateState next) {
    static Decided of(RateState state, long now, List<Reservation> batch) {
      List<RateDecision> decisions = new ArrayList<>(batch.size());
      RateState current = state;
      for (Reservation reservation : batch) {
        ReservationOutcome step =
            current.reserve(reservation.spec(), now, reservation.maxWaitNanos());
        decisions.add(step.decision());
        current = step.next();
      }
      return new Decided(decisions, current);
    }
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
}
