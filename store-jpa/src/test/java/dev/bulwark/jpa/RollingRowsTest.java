package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A ROLLING limit keeps one row per grant in its window, never more: rejected calls add none, and
 * the grants that left the window are deleted by the next reservation.
 */
class RollingRowsTest {

  private static final long MINUTE = 60_000_000_000L;
  private static final long SHORT = 300_000_000L;

  private final JpaStoreFixture fixture = new JpaStoreFixture(TestDatabase.H2, Provider.HIBERNATE);

  private long rows() {
    return fixture.database().rows(fixture.prefix(), "rate_grant");
  }

  @AfterEach
  void dropTables() {
    fixture.close();
  }

  @Test
  void theLogHoldsAtMostThePermitsOfOneWindow() throws Exception {
    RateSpec perMinute = new RateSpec("rolling-minute", RateLimitType.ROLLING, 5, MINUTE);
    RateSpec brief = new RateSpec("rolling-short", RateLimitType.ROLLING, 3, SHORT);
    try (JpaStore store = fixture.open(fixture.config(), (r, t) -> {})) {
      int granted = 0;
      for (int i = 0; i < 20; i++) {
        if (store.rates().reserve(perMinute, 0).granted()) {
          granted++;
        }
      }
      assertThat(granted).isEqualTo(5);
      assertThat(rows()).as("rejected calls add no row").isEqualTo(5);

      for (int i = 0; i < 3; i++) {
        store.rates().reserve(brief, 0);
      }
      assertThat(rows()).isBetween(6L, 8L);
      Thread.sleep(2 * SHORT / 1_000_000);
      assertThat(store.rates().reserve(brief, 0).granted()).isTrue();
      assertThat(rows())
          .as("the short limit's grants that left its window are gone")
          .isEqualTo(5 + 1);
    }
  }
}
