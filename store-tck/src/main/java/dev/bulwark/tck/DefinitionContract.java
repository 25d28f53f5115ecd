package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateSpec;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The promises of {@code define}: a store shared by several JVMs reports how another JVM recorded a
 * name when that differs in what must agree (a bulkhead's limit; a rate limit's type, permits and
 * window), and only then; a JVM's own repeated definition is never a conflict.
 */
public abstract class DefinitionContract extends StoreContract {

  private static final long SECOND = 1_000_000_000L;

  private static PermitSpec bulkhead(int limit, long leaseMillis) {
    return new PermitSpec("tck-defined", limit, leaseMillis);
  }

  @Test
  public void aJvmsOwnDefinitionIsNeverAConflict() {
    StoreJvm jvm = jvm();
    PermitSpec bulkhead = bulkhead(5, LONG_LEASE_MILLIS);
    RateSpec rate = new RateSpec("tck-defined", RateLimitType.SMOOTH, 10, SECOND);
    assertThat(jvm.permits().define(bulkhead)).isEmpty();
    assertThat(jvm.permits().define(bulkhead)).isEmpty();
    assertThat(jvm.rates().define(rate)).isEmpty();
    assertThat(jvm.rates().define(rate)).isEmpty();
  }

  @Test
  public void aDifferingLimitOfAnotherJvmIsReported() {
    StoreJvm a = jvm();
    StoreJvm b = anotherJvm();
    assertThat(a.permits().define(bulkhead(5, LONG_LEASE_MILLIS))).isEmpty();
    Optional<String> conflict = b.permits().define(bulkhead(7, LONG_LEASE_MILLIS));
    assertThat(conflict)
        .hasValueSatisfying(v -> assertThat(v).contains(bulkhead(5, 1).definition()));
    // the record shows the newest: a third JVM with the first definition is told of the second
    StoreJvm c = fixture().openJvm();
    assertThat(c.permits().define(bulkhead(5, LONG_LEASE_MILLIS)))
        .hasValueSatisfying(v -> assertThat(v).contains(bulkhead(7, 1).definition()));
    // the lease and the waiting time need not agree
    assertThat(a.permits().define(bulkhead(5, 1_000))).isEmpty();
    // a rate limit of the same name is another thing
    assertThat(a.rates().define(new RateSpec("tck-defined", RateLimitType.FIXED, 9, SECOND)))
        .isEmpty();
  }

  @Test
  public void aRateLimitDifferingInTypePermitsOrWindowIsReported() {
    StoreJvm a = jvm();
    anotherJvm(); // skips the test for a store of one JVM
    RateSpec first = new RateSpec("tck-rate", RateLimitType.SMOOTH, 10, SECOND);
    RateSpec[] differing = {
      new RateSpec("tck-rate", RateLimitType.FIXED, 10, SECOND),
      new RateSpec("tck-rate", RateLimitType.FIXED, 11, SECOND),
      new RateSpec("tck-rate", RateLimitType.FIXED, 11, 2 * SECOND),
    };
    assertThat(a.rates().define(first)).isEmpty();
    RateSpec previous = first;
    for (RateSpec next : differing) {
      String expected = previous.definition();
      StoreJvm restarted = fixture().openJvm();
      assertThat(restarted.rates().define(next))
          .as(next.definition())
          .hasValueSatisfying(v -> assertThat(v).contains(expected));
      previous = next;
    }
    assertThat(a.rates().define(previous)).isEmpty();
  }
}
