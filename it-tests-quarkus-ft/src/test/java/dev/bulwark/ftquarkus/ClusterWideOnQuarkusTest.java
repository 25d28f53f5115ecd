package dev.bulwark.ftquarkus;

import static dev.bulwark.ftquarkus.Limits.bulkheads;
import static dev.bulwark.ftquarkus.Limits.name;
import static dev.bulwark.ftquarkus.Limits.rateLimits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.RateLimiterHandle;
import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.core.config.BulkheadDefinition;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.faulttolerance.api.RateLimitException;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.junit.jupiter.api.Test;

/**
 * The bridge on Quarkus with SmallRye FT, configured by application.properties, on the local store
 * (the whole cluster is this JVM): the methods config makes cluster-wide get a Bulwark limit of
 * FT's own value, one per bean class and method; every other method is FT's alone. Permits taken
 * through the engine's programmatic handle stand for the rest of the cluster.
 */
@QuarkusTest
class ClusterWideOnQuarkusTest {

  private static final String CAPPED = name(Reports.class, "capped", Gate.class);
  private static final String CAPPED_JOBS = name(CappedJobs.class, "run", Gate.class);
  private static final String FIRST_WORK = name(FirstTeam.class, "work", Gate.class);
  private static final String SECOND_WORK = name(SecondTeam.class, "work", Gate.class);

  @Inject Reports reports;
  @Inject Exports exports;
  @Inject NightlyJobs nightly;
  @Inject CappedJobs cappedJobs;
  @Inject UnguardedJobs unguardedJobs;
  @Inject FirstTeam first;
  @Inject SecondTeam second;
  @Inject Busy busy;
  @Inject BulwarkRuntime runtime;

  @Test
  void aDistributedBulkheadCapsTheClusterAtFtsOwnValue() throws Exception {
    BulkheadHandle cluster = runtime.engine().programmatic().bulkhead(CAPPED);
    try (Callers held = Callers.holding(5, reports::capped)) {
      assertThat(cluster.tryAcquire()).as("FT's 5 callers hold every cluster permit").isEmpty();
      assertFtRejects(reports::capped);
      assertThat(held.release()).containsOnly("capped");
    }
    releasesAll(cluster, 5);
  }

  @Test
  void permitsHeldElsewhereInTheClusterRejectBeforeFtsValueIsReached() {
    BulkheadHandle cluster = runtime.engine().programmatic().bulkhead(CAPPED);
    List<Permit> elsewhere = acquire(cluster, 5);
    try {
      // FT's own bulkhead runs no call: only the cluster rejects
      assertThatThrownBy(() -> reports.capped(Gate.opened()))
          .isExactlyInstanceOf(BulkheadFullException.class)
          .hasMessageContaining(CAPPED);
    } finally {
      elsewhere.forEach(Permit::close);
    }
    assertThat(reports.capped(Gate.opened())).isEqualTo("capped");
  }

  @Test
  void everyClusterWideBulkheadTakesFtsValueForItsBeanClassAndMethod() {
    Map<String, BulkheadDefinition> bulkheads = bulkheads(runtime);
    assertThat(bulkheads)
        .containsOnlyKeys(
            CAPPED,
            name(Exports.class, "archive", Gate.class),
            name(Later.class, "stage", AsyncGate.class),
            name(Later.class, "uni", AsyncGate.class),
            CAPPED_JOBS,
            FIRST_WORK,
            name(FirstTeam.class, "work", Gate.class, String.class),
            SECOND_WORK,
            name(SecondTeam.class, "work", Gate.class, String.class),
            name(Busy.class, "run", Gate.class));
    assertThat(bulkheads.get(CAPPED).value()).isEqualTo(5);
    // a method key set for a class-level @Bulkhead: FT ignores it, so the cluster cap does too
    assertThat(bulkheads.get(name(Exports.class, "archive", Gate.class)).value()).isEqualTo(12);
    assertThat(bulkheads.get(CAPPED_JOBS).value()).isEqualTo(12);
    assertThat(bulkheads.get(FIRST_WORK).value()).isEqualTo(3);

    assertSameAsFt(bulkheads, Reports.class, "capped", Gate.class);
    assertSameAsFt(bulkheads, Exports.class, "archive", Gate.class);
    assertSameAsFt(bulkheads, Later.class, "stage", AsyncGate.class);
    assertSameAsFt(bulkheads, Later.class, "uni", AsyncGate.class);
    assertSameAsFt(bulkheads, CappedJobs.class, "run", Gate.class);
    assertSameAsFt(bulkheads, FirstTeam.class, "work", Gate.class);
    assertSameAsFt(bulkheads, SecondTeam.class, "work", Gate.class, String.class);
    assertSameAsFt(bulkheads, Busy.class, "run", Gate.class);
  }

  @Test
  void aMethodBulkheadThatStaysPerJvmIsFtsAloneWithNoBulwarkLimit() throws Exception {
    holdsFtsValueThenFtRejects(12, reports::perJvm);
    assertThat(bulkheads(runtime)).doesNotContainKey(name(Reports.class, "perJvm", Gate.class));
  }

  @Test
  void aMethodKeyKeepsOneMethodOfADistributedClassPerJvm() throws Exception {
    holdsFtsValueThenFtRejects(12, exports::export);
    assertThat(bulkheads(runtime)).doesNotContainKey(name(Exports.class, "export", Gate.class));
  }

  @Test
  void anInheritedClassLevelBulkheadThatStaysPerJvmIsFtsAlone() throws Exception {
    holdsFtsValueThenFtRejects(12, nightly::own);
    holdsFtsValueThenFtRejects(12, nightly::inherited);
    assertThat(bulkheads(runtime).keySet())
        .noneMatch(limit -> limit.startsWith(NightlyJobs.class.getName() + "#"))
        .noneMatch(limit -> limit.startsWith(BaseJobs.class.getName() + "#"));
  }

  /**
   * A plain superclass method inherited by a class-level {@code @Bulkhead(12)} subclass: another
   * subclass with no annotation gets no limit at all, FT's or Bulwark's, so more callers than any
   * bulkhead here would admit run at once.
   */
  @Test
  void anUnannotatedSubclassOfThatSuperclassGetsNoLimit() throws Exception {
    try (Callers held = Callers.holding(15, unguardedJobs::run)) {
      assertThat(unguardedJobs.run(Gate.opened())).isEqualTo("ran");
      assertThat(held.release()).hasSize(15).containsOnly("ran");
    }
    assertThat(bulkheads(runtime).keySet())
        .noneMatch(limit -> limit.startsWith(UnguardedJobs.class.getName() + "#"))
        .noneMatch(limit -> limit.startsWith(PlainJobs.class.getName() + "#"));
  }

  /** ... and the annotated subclass is capped at FT's 12 across the cluster, not at 10. */
  @Test
  void aClassLevelBulkheadOverAnInheritedMethodCapsTheClusterAtFtsValue() throws Exception {
    BulkheadHandle cluster = runtime.engine().programmatic().bulkhead(CAPPED_JOBS);
    try (Callers held = Callers.holding(12, cappedJobs::run)) {
      assertThat(cluster.tryAcquire()).as("FT's 12 callers hold every cluster permit").isEmpty();
      assertFtRejects(cappedJobs::run);
      assertThat(held.release()).hasSize(12);
    }
    releasesAll(cluster, 12);
  }

  /** Two beans inheriting one {@code @Bulkhead} method: two bulkheads in FT, two in the cluster. */
  @Test
  void twoBeansInheritingOneBulkheadMethodGetALimitEach() throws Exception {
    try (Callers held = Callers.holding(3, first::work)) {
      assertThat(runtime.engine().programmatic().bulkhead(FIRST_WORK).tryAcquire()).isEmpty();
      assertThat(second.work(Gate.opened())).isEqualTo("worked");
      assertFtRejects(first::work);
      assertThat(held.release()).containsOnly("worked");
    }
  }

  /** Overloads: one bulkhead each in FT, one each in the cluster. */
  @Test
  void overloadsGetALimitEach() throws Exception {
    try (Callers held = Callers.holding(3, first::work)) {
      assertThat(first.work(Gate.opened(), "other overload")).isEqualTo("other overload");
      assertThat(held.release()).containsOnly("worked");
    }
  }

  @Test
  void aClusterRejectionReachesFtsFallback() {
    BulkheadHandle cluster =
        runtime.engine().programmatic().bulkhead(name(Busy.class, "run", Gate.class));
    List<Permit> elsewhere = acquire(cluster, 2);
    try {
      assertThat(busy.run(Gate.opened())).isEqualTo("fallback");
    } finally {
      elsewhere.forEach(Permit::close);
    }
    assertThat(busy.run(Gate.opened())).isEqualTo("ran");
  }

  @Test
  void aDistributedRateLimitCountsEveryCallOfTheClusterAtFtsValue() {
    String quote = name(Reports.class, "quote");
    assertThat(rateLimits(runtime)).containsOnlyKeys(quote);
    assertThat(rateLimits(runtime).get(quote).value()).isEqualTo(5);
    assertThat(reports.quote()).isEqualTo("quoted");
    assertThat(reports.quote()).isEqualTo("quoted");
    RateLimiterHandle cluster = runtime.engine().programmatic().rateLimiter(quote);
    List<Boolean> elsewhere = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      elsewhere.add(cluster.tryAcquire());
    }
    // this JVM's two calls counted: three permits were left of FT's 5 a minute
    assertThat(elsewhere).containsExactly(true, true, true, false);
    // FT's own rate limit has admitted two of its five: only the cluster rejects, with SmallRye's
    // own exception type, Bulwark's as its cause
    assertThatThrownBy(reports::quote)
        .isInstanceOf(RateLimitException.class)
        .hasCauseInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void aRateLimitThatStaysPerJvmIsFtsAlone() {
    // more than a rate limit made from the binding's defaults (100 a second) would admit
    for (int i = 0; i < 150; i++) {
      assertThat(reports.localQuote()).isEqualTo("quoted");
    }
    assertThat(rateLimits(runtime)).doesNotContainKey(name(Reports.class, "localQuote"));
  }

  private static void assertSameAsFt(
      Map<String, BulkheadDefinition> bulkheads,
      Class<?> beanClass,
      String method,
      Class<?>... parameters) {
    assertThat(bulkheads.get(name(beanClass, method, parameters)).value())
        .as("cluster cap of %s", name(beanClass, method, parameters))
        .isEqualTo(Limits.ftBulkhead(beanClass, method, parameters).orElseThrow());
  }

  /** FT's own bulkhead, full in this JVM, rejects the next call: not Bulwark. */
  private static void assertFtRejects(Function<Gate, String> call) {
    assertThatThrownBy(() -> call.apply(Gate.opened()))
        .isInstanceOf(BulkheadException.class)
        .isNotInstanceOf(BulkheadFullException.class);
  }

  /**
   * More callers than the 10 of a bulkhead made from the binding's defaults are admitted, up to
   * FT's value; the next is rejected by FT itself.
   */
  private static void holdsFtsValueThenFtRejects(int ftValue, Function<Gate, String> call)
      throws Exception {
    try (Callers held = Callers.holding(ftValue, call)) {
      assertFtRejects(call);
      assertThat(held.release()).hasSize(ftValue);
    }
  }

  private static List<Permit> acquire(BulkheadHandle bulkhead, int count) {
    List<Permit> permits = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      permits.add(bulkhead.acquire());
    }
    return permits;
  }

  /** Once the callers returned, every permit of the cluster is free again. */
  private static void releasesAll(BulkheadHandle bulkhead, int value) {
    List<Permit> permits = new ArrayList<>();
    try {
      for (int i = 0; i < value; i++) {
        Optional<Permit> permit = bulkhead.tryAcquire();
        assertThat(permit).as("permit %s of %s free", i + 1, value).isPresent();
        permits.add(permit.get());
      }
      assertThat(bulkhead.tryAcquire()).as("no more than FT's %s", value).isEmpty();
    } finally {
      permits.forEach(Permit::close);
    }
  }
}
