package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A SMOOTH or FIXED reservation does not hold, or wait for, the limit's row lock when it has
 * nothing to write: while another session holds the row locked (as a JVM that is slow between the
 * statements of its transaction would), a reservation that finds no permit is rejected at once
 * instead of waiting for that session to end.
 */
class RateRowLockTest {

  private static final long MINUTE = 60_000_000_000L;
  private static final long ANSWER_WITHIN_SECONDS = 10;

  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"POSTGRESQL", "MARIADB"})
  void aRejectionIsAnsweredWhileAnotherSessionHoldsTheLimitsRow(TestDatabase database)
      throws Exception {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
    try (JpaStore store = fixture.open(fixture.config(), (r, t) -> {})) {
      for (RateLimitType type : new RateLimitType[] {RateLimitType.SMOOTH, RateLimitType.FIXED}) {
        RateSpec spec = new RateSpec("row-lock-" + type, type, 1, MINUTE);
        assertThat(store.rates().reserve(spec, 0).granted()).as(type + ": the one permit").isTrue();
        try (Connection other = database.connect();
            Statement statement = other.createStatement()) {
          other.setAutoCommit(false);
          statement.execute("SELECT id FROM " + fixture.prefix() + "limit FOR UPDATE");
          CompletableFuture<RateDecision> reservation =
              CompletableFuture.supplyAsync(() -> store.rates().reserve(spec, 0));
          RateDecision decision = reservation.get(ANSWER_WITHIN_SECONDS, TimeUnit.SECONDS);
          assertThat(decision.granted()).as(type + ": no permit left").isFalse();
          assertThat(decision.delayNanos()).as(type + ": the next permit").isPositive();
          other.rollback();
        }
      }
    } finally {
      fixture.close();
    }
  }
}
