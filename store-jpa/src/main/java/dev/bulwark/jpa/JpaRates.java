package dev.bulwark.jpa;

import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.RateLimitType;
import dev.bulwark.core.rate.RateState;
import dev.bulwark.core.rate.ReservationOutcome;
import dev.bulwark.core.rate.RollingStep;
import dev.bulwark.core.rate.RollingWindowState;
import dev.bulwark.jpa.entity.LimitRow;
import dev.bulwark.jpa.entity.RateGrantRow;
import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Rate limits as core's {@link RateState} arithmetic over state kept in the database, on the
 * database's clock in nanoseconds: SMOOTH and FIXED keep their two longs on the limit row, ROLLING
 * keeps its grant times as rows ({@link RollingLog}): a reservation reads the few rows core's
 * rolling step asks for, deletes the ones that left the window by one range and appends one per
 * grant, so it costs what expired plus O(1) rows however long the log.
 *
 * <p>A batch of reservations ({@link #reserveEach}; a single one is a batch of one) is decided in
 * one transaction. SMOOTH and FIXED batches are decided optimistically first ({@link RateRow}): the
 * state and the clock are read without a lock, rejections write nothing, and grants swap the state
 * only if no other JVM changed it since. So no call holds the limit's row while its JVM computes,
 * and one slow JVM cannot hold up the others. A batch that loses the swap {@link
 * #OPTIMISTIC_ATTEMPTS} times, a limit without a row or state yet, and every ROLLING reservation
 * take the locked path: lock the row, then read the clock, decide and write, so that a JVM that
 * keeps losing still gets its turn.
 */
final class JpaRates implements RateStore {

  /** Swaps a batch may lose to other JVMs before it takes the locked path. */
  static final int OPTIMISTIC_ATTEMPTS = 50;

  private final StoreCore core;
  private final Definitions definitions;

  JpaRates(StoreCore core, Definitions definitions) {
    this.core = core;
    this.definitions = definitions;
  }

  @Override
  public RateDecision reserve(RateSpec spec, long maxWaitNanos) {
    return reserveEach(spec, new long[] {maxWaitNanos}).get(0);
  }

  /**
   * One transaction decides the batch, one reservation after another in order: SMOOTH and FIXED
   * optimistically, else locked ({@link #decide}), ROLLING on the limit's locked row.
   */
  @Override
  public List<RateDecision> reserveEach(RateSpec spec, long[] maxWaitNanos) {
    Objects.requireNonNull(spec, "RateStore.reserveEach: spec is null");
    Objects.requireNonNull(maxWaitNanos, "RateStore.reserveEach: maxWaitNanos is null");
    if (maxWaitNanos.length == 0) {
      return List.of();
    }
    if (spec.type() != RateLimitType.ROLLING) {
      return decide(spec, maxWaitNanos);
    }
    return core.transactions()
        .run(
            maxWaitNanos.length == 1
                ? "reserve a rate permit"
                : "reserve " + maxWaitNanos.length + " rate permits",
            em -> {
              List<RateDecision> decisions = new ArrayList<>(maxWaitNanos.length);
              for (long maxWait : maxWaitNanos) {
                decisions.add(reserveRolling(em, spec, maxWait));
              }
              return decisions;
            });
  }

  /**
   * One ROLLING reservation in the transaction of {@code em}, on the limit's row it locks (a lock
   * the transaction may hold already, from the reservation before it in the batch).
   */
  private RateDecision reserveRolling(EntityManager em, RateSpec spec, long maxWaitNanos) {
    LimitRow limit = core.lockLimit(em, StoreCore.RATES, spec.name());
    long now = core.nowMicros(em) * 1000;
    RollingLog log = RollingLog.of(em, limit);
    RollingStep step = RollingWindowState.step(log, spec, now, maxWaitNanos);
    log.apply(step);
    return step.decision();
  }

  /** Decides a batch of SMOOTH or FIXED reservations on one limit: optimistically, else locked. */
  private List<RateDecision> decide(RateSpec spec, long[] batch) {
    String name = spec.name();
    String id = RowIds.limit(StoreCore.RATES, name);
    for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
      Attempt outcome =
          core.transactions()
              .run("reserve rate permits of " + name, em -> optimistic(em, id, spec, batch));
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
              Decided decided = Decided.of(stored(limit, log), now, spec, batch);
              // the batch's limits are SMOOTH or FIXED: a ROLLING log left by a former definition
              // goes
              log.forEach(em::remove);
              long[] longs = decided.next().toLongs();
              limit.rateState(decided.next().type().name(), longs[0], longs[1]);
              return decided.decisions();
            });
  }

  private Attempt optimistic(EntityManager em, String id, RateSpec spec, long[] batch) {
    RateRow row = core.statements(em).rateRow();
    RateRow.Stored stored = row.read(em, id);
    if (stored == null) {
      return Attempt.LOCK;
    }
    Decided decided = Decided.of(stored.state(), stored.nowNanos(), spec, batch);
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
    static Decided of(RateState state, long now, RateSpec spec, long[] maxWaitNanos) {
      List<RateDecision> decisions = new ArrayList<>(maxWaitNanos.length);
      RateState current = state;
      for (long maxWait : maxWaitNanos) {
        ReservationOutcome step = current.reserve(spec, now, maxWait);
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
