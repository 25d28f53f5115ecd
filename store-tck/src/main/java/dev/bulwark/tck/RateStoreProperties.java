package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.tck.model.RateModel;
import dev.bulwark.tck.model.TimeSpan;
import dev.bulwark.tck.property.Action;
import dev.bulwark.tck.property.ActionChain;
import dev.bulwark.tck.property.ChainStep;
import dev.bulwark.tck.property.Gen;
import dev.bulwark.tck.property.Property;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link dev.bulwark.spi.RateStore} against {@link RateModel}: random sequences of reservations
 * (failing fast or willing to wait; single or in bursts) from every simulated JVM on up to three
 * limits of every type, pauses of chosen lengths, retries after a rejection's hint, and
 * redefinitions of a limit's permits or interval (those below). Every grant, delay and rejection
 * must be one the model gives at some instant between the readings of the store's clock taken just
 * before and just after the call.
 *
 * <p>The store decides on its own clock, so nothing here reads the client's: a loaded machine
 * widens the spans the model allows, it never fails a try. Windows are whole milliseconds and a
 * SMOOTH window is a whole number of intervals, so that every store, whatever unit its clock counts
 * in, answers to the nanosecond what the model computes.
 *
 * <p>A batch action sends 2 to 8 reservations, each with its own maximum wait, from one JVM through
 * {@link dev.bulwark.spi.RateStore#reserveEach}: the decisions must be the model's for those
 * reservations made one by one in order, each at an instant within the clock's readings around the
 * batch.
 *
 * <p>Redefinitions keep the type (a new type starts a limit afresh; the Redis store keeps a state
 * per type, the others one per name): a SMOOTH limit's permits and interval, a ROLLING limit's
 * permits in the same window, a FIXED limit's window (it starts afresh) or its permits, more in the
 * same window. Left out:
 *
 * <ul>
 *   <li>FIXED, fewer permits in the same window: the stored count is read under the new permits, so
 *       slots reserved under the former definition reach further ahead, and a Redis key, whose
 *       expiry was set for the former reach, can end before the stores without expiry forget it.
 *   <li>ROLLING, another window: whether a time in the log is a grant that started or a slot
 *       reserved for later is told by the window it was written under.
 * </ul>
 */
public abstract class RateStoreProperties extends StoreProperties {

  private static final long MS = 1_000_000L;

  /**
   * The unit of the relative times in the model's messages: a minute, a multiple of every window.
   */
  private static final long ORIGIN_UNIT = 60_000 * MS;

  private static final List<Long> MAX_WAITS_MS = List.of(0L, 0L, 0L, 10L, 40L, 100L, 250L);
  private static final List<Long> PAUSES_MS = List.of(5L, 20L, 50L, 100L);

  /**
   * The intervals between permits the limits use. A store whose calls take longer (a database under
   * load) needs longer ones, so that calls still come faster than permits and the clock's readings
   * around a call stay short beside an interval.
   */
  protected List<Long> intervalsMillis() {
    return List.of(20L, 50L);
  }

  @Test
  public void aRateLimitAnswersAsItsModel() {
    Property.forAll(tries(), rateRuns(), ActionChain::run);
  }

  Gen<ActionChain<Run>> rateRuns() {
    return plan(intervalsMillis())
        .list(1, 3)
        .flatMap(
            plans ->
                ActionChain.<Run>startWith(() -> new Run(plans))
                    .withAction(5, reserve(plans.size()))
                    .withAction(2, burst(plans.size()))
                    .withAction(2, batch(plans.size()))
                    .withAction(2, pause())
                    .withAction(1, retryAfterHint(plans.size()))
                    .withAction(1, redefine(plans.size(), intervalsMillis()))
                    .withMaxSteps(25));
  }

  /** A limit's first definition: its type, permits and the interval between permits. */
  private record Plan(RateLimitType type, int permits, long intervalMs) {

    RateSpec spec(String name) {
      return new RateSpec(name, type, permits, permits * intervalMs * MS);
    }
  }

  private static Gen<Plan> plan(List<Long> intervalsMillis) {
    Gen<RateLimitType> types = Gen.of(RateLimitType.class);
    Gen<Integer> permits = Gen.ints(1, 4);
    Gen<Long> intervals = Gen.of(intervalsMillis);
    return draws -> new Plan(types.next(draws), permits.next(draws), intervals.next(draws));
  }

  /** One try: its limits, each with its model, and the clock's origin for readable messages. */
  final class Run {
    private final List<RateModel> models = new ArrayList<>();
    private final List<Long> hints = new ArrayList<>();
    private final long origin;

    Run(List<Plan> plans) {
      for (Plan plan : plans) {
        if (ORIGIN_UNIT % (plan.permits() * plan.intervalMs() * MS) != 0) {
          // the model counts fixed windows from the origin: they must align to the epoch's
          throw new IllegalArgumentException(plan + ": a minute is no whole number of its windows");
        }
        hints.add(null);
      }
      origin = Math.floorDiv(clockNanos(), ORIGIN_UNIT) * ORIGIN_UNIT;
      for (Plan plan : plans) {
        models.add(new RateModel(plan.spec(freshName("rate")), origin));
      }
    }

    void reserve(int limit, int jvm, long maxWaitNanos) {
      RateModel model = models.get(limit);
      String before = model.toString();
      long start = clockNanos();
      RateDecision decision = jvms().get(jvm).rates().reserve(model.spec(), maxWaitNanos);
      long end = clockNanos();
      TimeSpan call = new TimeSpan(start - origin, end - origin);
      Optional<String> broken = model.reserve(call, maxWaitNanos, decision);
      assertThat(broken)
          .as(
              "%s to limit %s (max wait %s ns) within %s, on %s",
              decision, limit, maxWaitNanos, call, before)
          .isEmpty();
      // how exactly the store's instant was known: the model checks to within this span
      Property.collect("clock span, ms (rounded down to 5)", (end - start) / MS / 5 * 5);
      hints.set(limit, decision.granted() ? null : decision.delayNanos());
      Property.collect(
          "answers",
          model.spec().type(),
          decision.granted() ? (decision.delayNanos() == 0 ? "now" : "later") : "rejected");
    }

    /** Sends one reservation per element of {@code maxWaitsMs} from JVM {@code jvm} as a batch. */
    void reserveEach(int limit, int jvm, List<Long> maxWaitsMs) {
      RateModel model = models.get(limit);
      String before = model.toString();
      long[] maxWaits = maxWaitsMs.stream().mapToLong(ms -> ms * MS).toArray();
      long start = clockNanos();
      List<RateDecision> decisions = jvms().get(jvm).rates().reserveEach(model.spec(), maxWaits);
      long end = clockNanos();
      TimeSpan call = new TimeSpan(start - origin, end - origin);
      assertThat(decisions)
          .as("decisions of a batch of %s on %s", maxWaitsMs, before)
          .hasSize(maxWaits.length);
      for (int i = 0; i < maxWaits.length; i++) {
        RateDecision decision = decisions.get(i);
        String state = model.toString();
        assertThat(model.reserve(call, maxWaits[i], decision))
            .as(
                "%s, reservation %s of a batch with max waits %s ms to limit %s within %s, on %s",
                decision, i + 1, maxWaitsMs, limit, call, state)
            .isEmpty();
        hints.set(limit, decision.granted() ? null : decision.delayNanos());
      }
      Property.collect("batch reservations sent", maxWaits.length);
    }

    /** Waits as long as the limit's last rejection said, then asks for a permit now. */
    void retryAfterHint(int limit, int jvm) {
      Long hint = hints.get(limit);
      if (hint != null) {
        sleep(hint);
        reserve(limit, jvm, 0);
      }
    }

    void redefine(int limit, int permits, long intervalMs) {
      RateModel model = models.get(limit);
      RateSpec spec = model.spec();
      RateSpec next =
          switch (spec.type()) {
            case SMOOTH ->
                new RateSpec(spec.name(), spec.type(), permits, permits * intervalMs * MS);
            case FIXED -> {
              long window = permits * intervalMs * MS;
              yield window != spec.windowNanos() || permits >= spec.permits()
                  ? new RateSpec(spec.name(), spec.type(), permits, window)
                  : spec;
            }
            case ROLLING -> new RateSpec(spec.name(), spec.type(), permits, spec.windowNanos());
          };
      model.redefine(next);
    }

    @Override
    public String toString() {
      return models.toString();
    }
  }

  private Action<Run> reserve(int limits) {
    Gen<Integer> limitIndex = limitIndex(limits);
    Gen<Integer> jvmIndex = jvmIndex();
    Gen<Long> maxWaits = Gen.of(MAX_WAITS_MS);
    return Action.independent(
        draws -> {
          int limit = limitIndex.next(draws);
          int jvm = jvmIndex.next(draws);
          long maxWaitMs = maxWaits.next(draws);
          return ChainStep.of(
              "reserve on limit " + limit + " in jvm" + jvm + ", max wait " + maxWaitMs + " ms",
              r -> r.reserve(limit, jvm, maxWaitMs * MS));
        });
  }

  /**
   * Several reservations back to back: the SPI takes one permit a call, so this is how a caller's
   * burst of n permits reaches it (and how a store whose calls are slow still meets a full limit).
   */
  private Action<Run> burst(int limits) {
    Gen<Integer> limitIndex = limitIndex(limits);
    Gen<Integer> jvmIndex = jvmIndex();
    Gen<Integer> counts = Gen.ints(2, 5);
    Gen<Long> maxWaits = Gen.of(MAX_WAITS_MS);
    return Action.independent(
        draws -> {
          int limit = limitIndex.next(draws);
          int jvm = jvmIndex.next(draws);
          int count = counts.next(draws);
          long maxWaitMs = maxWaits.next(draws);
          return ChainStep.of(
              count
                  + " reservations on limit "
                  + limit
                  + " in jvm"
                  + jvm
                  + ", max wait "
                  + maxWaitMs
                  + " ms",
              r -> {
                for (int i = 0; i < count; i++) {
                  r.reserve(limit, jvm, maxWaitMs * MS);
                }
              });
        });
  }

  /** Reservations with maximum waits of their own, as one batch of a JVM. */
  private Action<Run> batch(int limits) {
    Gen<Integer> limitIndex = limitIndex(limits);
    Gen<Integer> jvmIndex = jvmIndex();
    Gen<List<Long>> maxWaitLists = Gen.of(MAX_WAITS_MS).list(2, 8);
    return Action.independent(
        draws -> {
          int limit = limitIndex.next(draws);
          int jvm = jvmIndex.next(draws);
          List<Long> maxWaitsMs = maxWaitLists.next(draws);
          return ChainStep.of(
              "batch of reservations on limit "
                  + limit
                  + " in jvm"
                  + jvm
                  + ", max waits "
                  + maxWaitsMs
                  + " ms",
              r -> r.reserveEach(limit, jvm, maxWaitsMs));
        });
  }

  private static Action<Run> pause() {
    return Action.independent(
        Gen.of(PAUSES_MS)
            .map(
                ms ->
                    ChainStep.of(
                        "pause " + ms + " ms", r -> sleep(TimeUnit.MILLISECONDS.toNanos(ms)))));
  }

  private Action<Run> retryAfterHint(int limits) {
    Gen<Integer> limitIndex = limitIndex(limits);
    Gen<Integer> jvmIndex = jvmIndex();
    return Action.independent(
        draws -> {
          int limit = limitIndex.next(draws);
          int jvm = jvmIndex.next(draws);
          return ChainStep.of(
              "retry on limit " + limit + " in jvm" + jvm + " after its last hint",
              r -> r.retryAfterHint(limit, jvm));
        });
  }

  private static Action<Run> redefine(int limits, List<Long> intervalsMillis) {
    Gen<Integer> limitIndex = limitIndex(limits);
    Gen<Integer> permitCounts = Gen.ints(1, 4);
    Gen<Long> intervals = Gen.of(intervalsMillis);
    return Action.independent(
        draws -> {
          int limit = limitIndex.next(draws);
          int permits = permitCounts.next(draws);
          long intervalMs = intervals.next(draws);
          return ChainStep.of(
              "redefine limit "
                  + limit
                  + " with "
                  + permits
                  + " permits, "
                  + intervalMs
                  + " ms apart",
              r -> r.redefine(limit, permits, intervalMs));
        });
  }

  private static Gen<Integer> limitIndex(int limits) {
    return Gen.ints(0, limits - 1);
  }

  private Gen<Integer> jvmIndex() {
    return Gen.ints(0, jvms().size() - 1);
  }

  static void sleep(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while pausing", e);
    }
  }
}
