package dev.bulwark.it.cluster.history;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A writer of a key is alone on it: no other writer and no reader of the same key holds at any
 * instant it holds. Readers share; keys are independent. Holds are the intervals the records prove
 * ({@link HeldInterval}), so only bodies that overlap are violations, not holds that merely may
 * have.
 */
public final class LockExclusionRule implements HistoryRule {

  public static final String READ = "READ";
  public static final String WRITE = "WRITE";

  private final long unendedUntil;

  private LockExclusionRule(long unendedUntil) {
    this.unendedUntil = unendedUntil;
  }

  public static LockExclusionRule writersAlone() {
    return new LockExclusionRule(Long.MAX_VALUE);
  }

  /** Calls whose end was never recorded (their JVM was killed) hold until {@code instant}. */
  public LockExclusionRule unendedHeldUntil(long instant) {
    return new LockExclusionRule(instant);
  }

  @Override
  public String describe() {
    return "a writer is alone on its key";
  }

  @Override
  public RuleOutcome check(History history) {
    Map<String, List<HeldInterval>> byKey = new LinkedHashMap<>();
    for (CallRecord call : history.calls()) {
      if (call.entered() && (READ.equals(call.kind()) || WRITE.equals(call.kind()))) {
        byKey
            .computeIfAbsent(call.key(), k -> new ArrayList<>())
            .add(HeldInterval.of(call, unendedUntil));
      }
    }
    List<RuleViolation> violations = new ArrayList<>();
    long[] writes = new long[1];
    byKey.forEach(
        (key, intervals) -> {
          Set<HeldInterval> readers = new LinkedHashSet<>();
          Set<HeldInterval> writers = new LinkedHashSet<>();
          HeldInterval.sweep(
              intervals,
              new HeldInterval.Visitor() {
                @Override
                public void enter(HeldInterval interval) {
                  boolean write = WRITE.equals(interval.call().kind());
                  List<CallRecord> beside = new ArrayList<>();
                  writers.forEach(w -> beside.add(w.call()));
                  if (write) {
                    writes[0]++;
                    readers.forEach(r -> beside.add(r.call()));
                  }
                  if (!beside.isEmpty()) {
                    List<CallRecord> records = new ArrayList<>();
                    records.add(interval.call());
                    records.addAll(beside);
                    violations.add(
                        new RuleViolation(
                            (write ? "a writer" : "a reader")
                                + " of "
                                + key
                                + " entered at "
                                + interval.from()
                                + " beside "
                                + beside.size()
                                + (write ? " holders" : " writers"),
                            records));
                  }
                  (write ? writers : readers).add(interval);
                }

                @Override
                public void exit(HeldInterval interval) {
                  (WRITE.equals(interval.call().kind()) ? writers : readers).remove(interval);
                }
              });
        });
    long holds = byKey.values().stream().mapToLong(List::size).sum();
    return new RuleOutcome(
        describe(),
        holds + " holds on " + byKey.size() + " keys, " + writes[0] + " writes",
        violations);
  }
}
