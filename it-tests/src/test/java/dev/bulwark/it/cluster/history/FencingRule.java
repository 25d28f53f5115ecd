package dev.bulwark.it.cluster.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fencing tokens strictly increase per key in the order the write locks were granted. A grant's
 * instant is known only to lie in [request, entry], so a write A is known to have been granted
 * before a write B of the same key when
 *
 * <ul>
 *   <li>A entered before B was requested (A's grant window ends where B's begins), or
 *   <li>A's body ended before B's began: writes are exclusive, so B's grant followed A's release
 *       ({@link LockExclusionRule} proves the exclusion; were it broken, this order could be wrong,
 *       but that rule then fails).
 * </ul>
 *
 * Pairs whose order the records leave open are not compared. For each write the checker finds the
 * largest token among the writes known to precede it (sorted prefixes, binary search): exact, in
 * O(n log n).
 */
public final class FencingRule implements HistoryRule {

  private FencingRule() {}

  public static FencingRule tokensGrowPerKey() {
    return new FencingRule();
  }

  @Override
  public String describe() {
    return "fencing tokens strictly increase per key in grant order";
  }

  @Override
  public RuleOutcome check(History history) {
    Map<String, List<CallRecord>> byKey = new LinkedHashMap<>();
    for (CallRecord call : history.calls()) {
      if (call.entered() && LockExclusionRule.WRITE.equals(call.kind())) {
        byKey.computeIfAbsent(call.key(), k -> new ArrayList<>()).add(call);
      }
    }
    List<RuleViolation> violations = new ArrayList<>();
    long[] ordered = new long[1];
    byKey.forEach(
        (key, writes) -> {
          // writes known to precede B: entered by B's request; ended by B's entry
          PrefixMax byEntry = new PrefixMax(writes, CallRecord::enterNanos);
          PrefixMax byExit =
              new PrefixMax(
                  writes.stream().filter(CallRecord::ended).toList(), CallRecord::exitNanos);
          for (CallRecord b : writes) {
            CallRecord worst = byEntry.largestTokenUpTo(b.requestNanos());
            CallRecord afterBody = byExit.largestTokenUpTo(b.enterNanos());
            if (worst == null || (afterBody != null && afterBody.token() > worst.token())) {
              worst = afterBody;
            }
            if (worst != null) {
              ordered[0]++;
              if (worst.token() >= b.token()) {
                violations.add(
                    new RuleViolation(
                        "on "
                            + key
                            + ", token "
                            + b.token()
                            + " granted after token "
                            + worst.token(),
                        List.of(worst, b)));
              }
            }
          }
        });
    long writes = byKey.values().stream().mapToLong(List::size).sum();
    return new RuleOutcome(
        describe(),
        writes
            + " writes on "
            + byKey.size()
            + " keys, "
            + ordered[0]
            + " with a known predecessor",
        violations);
  }

  /** Calls sorted by one instant, with the call of the largest token up to each position. */
  private static final class PrefixMax {
    private final long[] instants;
    private final CallRecord[] largest;

    PrefixMax(List<CallRecord> calls, java.util.function.ToLongFunction<CallRecord> instant) {
      List<CallRecord> sorted = new ArrayList<>(calls);
      sorted.sort(Comparator.comparingLong(instant));
      instants = new long[sorted.size()];
      largest = new CallRecord[sorted.size()];
      for (int i = 0; i < sorted.size(); i++) {
        CallRecord call = sorted.get(i);
        instants[i] = instant.applyAsLong(call);
        largest[i] = i > 0 && largest[i - 1].token() >= call.token() ? largest[i - 1] : call;
      }
    }

    /** The call of the largest token among those whose instant is at or before {@code limit}. */
    CallRecord largestTokenUpTo(long limit) {
      int index = Arrays.binarySearch(instants, limit);
      if (index >= 0) {
        // the last of equal instants
        while (index + 1 < instants.length && instants[index + 1] == limit) {
          index++;
        }
      } else {
        index = -index - 2;
      }
      return index >= 0 ? largest[index] : null;
    }
  }
}
