package dev.bulwark.ftquarkus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.RateLimitDefinition;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.junit.jupiter.api.Test;

/**
 * The bridge on Quarkus with SmallRye FT, configured by application.properties: the methods config
 * makes cluster-wide get Bulwark's cap; every other {@code @Bulkhead} method is FT's alone.
 */
@QuarkusTest
class ClusterWideOnQuarkusTest {

  private static final String REPORTS = Reports.class.getName();
  private static final String EXPORTS = Exports.class.getName();

  @Inject Reports reports;
  @Inject Exports exports;
  @Inject NightlyJobs jobs;
  @Inject BulwarkRuntime runtime;

  @Test
  void aDistributedBulkheadHoldsBulwarksCapBelowFtsOwnValue() throws Exception {
    try (Callers held = Callers.holding(2, reports::capped)) {
      // FT's own bulkhead (5) would admit this call: Bulwark's cluster cap (2) rejects it
      assertThatThrownBy(() -> reports.capped(Gate.opened()))
          .isExactlyInstanceOf(BulkheadFullException.class)
          .hasMessageContaining(REPORTS + "#capped");
      assertThat(held.release()).containsOnly("capped");
    }
    assertThat(reports.capped(Gate.opened())).isEqualTo("capped");
  }

  @Test
  void configDecidesPerMethodWhichBulkheadsAreDeclaredAndWithWhatCap() {
    assertThat(bulkheads())
        .containsOnlyKeys(
            REPORTS + "#capped",
            EXPORTS + "#archive",
            Later.class.getName() + "#stage",
            Later.class.getName() + "#uni")
        .hasEntrySatisfying(
            REPORTS + "#capped",
            capped -> {
              assertThat(capped.value()).isEqualTo(2);
              assertThat(capped.sources())
                  .containsEntry("value", "bulwark.bulkhead." + REPORTS + "#capped.value");
            })
        .hasEntrySatisfying(
            EXPORTS + "#archive",
            archive -> {
              assertThat(archive.value()).isEqualTo(3);
              assertThat(archive.sources()).containsEntry("value", "@Bulkhead");
            });
  }

  @Test
  void aMethodBulkheadThatStaysPerJvmIsFtsAloneWithNoBulwarkLimit() throws Exception {
    holdsFtsValueThenFtRejects(12, reports::perJvm);
    assertThat(bulkheads()).doesNotContainKey(REPORTS + "#perJvm");
  }

  @Test
  void aMethodKeyKeepsOneMethodOfADistributedClassPerJvm() throws Exception {
    holdsFtsValueThenFtRejects(12, exports::export);
    assertThat(bulkheads()).doesNotContainKey(EXPORTS + "#export");
  }

  @Test
  void anInheritedClassLevelBulkheadThatStaysPerJvmIsFtsAlone() throws Exception {
    holdsFtsValueThenFtRejects(12, jobs::own);
    holdsFtsValueThenFtRejects(12, jobs::inherited);
    assertThat(bulkheads())
        .doesNotContainKeys(
            BaseJobs.class.getName() + "#inherited", NightlyJobs.class.getName() + "#own");
  }

  @Test
  void aDistributedRateLimitCountsBulwarksValue() {
    List<String> outcomes = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      try {
        outcomes.add(reports.quote());
      } catch (RateLimitExceededException e) {
        outcomes.add("rejected");
      }
    }
    // SmallRye's own rate limit (200 a minute) would admit all three
    assertThat(outcomes).containsExactly("quoted", "quoted", "rejected");
    assertThat(rateLimits()).containsOnlyKeys(REPORTS + "#quote");
  }

  @Test
  void aRateLimitThatStaysPerJvmIsFtsAlone() {
    // more than a rate limit made from the binding's defaults (100 a second) would admit
    for (int i = 0; i < 150; i++) {
      assertThat(reports.localQuote()).isEqualTo("quoted");
    }
    assertThat(rateLimits()).doesNotContainKey(REPORTS + "#localQuote");
  }

  /**
   * More callers than the 10 of a bulkhead made from the binding's defaults are admitted, up to
   * FT's value; the next is rejected by FT itself.
   */
  private static void holdsFtsValueThenFtRejects(int ftValue, Function<Gate, String> call)
      throws Exception {
    try (Callers held = Callers.holding(ftValue, call)) {
      assertThatThrownBy(() -> call.apply(Gate.opened()))
          .isInstanceOf(BulkheadException.class)
          .isNotInstanceOf(BulkheadFullException.class);
      assertThat(held.release()).hasSize(ftValue);
    }
  }

  private Map<String, RateLimitDefinition> rateLimits() {
    return runtime.engine().registry().catalog().definitions().stream()
        .filter(RateLimitDefinition.class::isInstance)
        .map(RateLimitDefinition.class::cast)
        .collect(Collectors.toMap(LimitDefinition::name, d -> d));
  }

  private Map<String, BulkheadDefinition> bulkheads() {
    return runtime.engine().registry().catalog().definitions().stream()
        .filter(BulkheadDefinition.class::isInstance)
        .map(BulkheadDefinition.class::cast)
        .collect(Collectors.toMap(LimitDefinition::name, d -> d));
  }
}
