package dev.bulwark.ftquarkus;

import static dev.bulwark.ftquarkus.Limits.bulkheads;
import static dev.bulwark.ftquarkus.Limits.name;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.Permit;
import dev.bulwark.cdi.BulwarkRuntime;
import io.quarkus.arc.InjectableInterceptor;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.faulttolerance.FaultToleranceBinding;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.InterceptionType;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.junit.jupiter.api.Test;

/**
 * FT's config as a Quarkus application gives it: a bulkhead's value in Quarkus' own spelling
 * changes FT's bulkhead and the cluster's alike, and with FT's interceptor moved to priority 4200
 * (fixed at build time) a cluster rejection still reaches FT's {@code @Fallback}.
 */
@QuarkusTest
@TestProfile(QuarkusFaultToleranceConfigTest.QuarkusSpelling.class)
class QuarkusFaultToleranceConfigTest {

  private static final String CAPPED = name(Reports.class, "capped", Gate.class);

  public static class QuarkusSpelling implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of(
          "quarkus.fault-tolerance.\"" + Reports.class.getName() + "/capped\".bulkhead.value",
          "3",
          "mp.fault.tolerance.interceptor.priority",
          "4200");
    }
  }

  @Inject Reports reports;
  @Inject Busy busy;
  @Inject BulwarkRuntime runtime;
  @Inject BeanManager beans;

  @Test
  void quarkusSpellingOfABulkheadValueSetsFtsCapAndTheClustersAlike() throws Exception {
    assertThat(Limits.ftBulkhead(Reports.class, "capped", Gate.class)).hasValue(3);
    assertThat(bulkheads(runtime).get(CAPPED).value()).isEqualTo(3);
    // the startup table names the key as the application spelt it, not SmallRye's relocated one
    assertThat(bulkheads(runtime).get(CAPPED).sources())
        .containsEntry(
            "value",
            "quarkus.fault-tolerance.\"" + Reports.class.getName() + "/capped\".bulkhead.value");

    BulkheadHandle cluster = runtime.engine().programmatic().bulkhead(CAPPED);
    try (Callers held = Callers.holding(3, reports::capped)) {
      assertThat(cluster.tryAcquire()).as("FT's 3 callers hold every cluster permit").isEmpty();
      assertThatThrownBy(() -> reports.capped(Gate.opened()))
          .isInstanceOf(BulkheadException.class)
          .isNotInstanceOf(BulkheadFullException.class);
      assertThat(held.release()).containsOnly("capped");
    }
  }

  @Test
  void withFtsPriorityMovedAClusterRejectionStillReachesItsFallback() {
    assertThat(
            beans.resolveInterceptors(
                InterceptionType.AROUND_INVOKE, FaultToleranceBinding.Literal.INSTANCE))
        .as("FT's interceptor was moved")
        .singleElement()
        .satisfies(ft -> assertThat(((InjectableInterceptor<?>) ft).getPriority()).isEqualTo(4200));

    BulkheadHandle cluster =
        runtime.engine().programmatic().bulkhead(name(Busy.class, "run", Gate.class));
    List<Permit> elsewhere = new ArrayList<>();
    try {
      elsewhere.add(cluster.acquire());
      elsewhere.add(cluster.acquire());
      assertThat(busy.run(Gate.opened())).isEqualTo("fallback");
    } finally {
      elsewhere.forEach(Permit::close);
    }
    assertThat(busy.run(Gate.opened())).isEqualTo("ran");
  }
}
