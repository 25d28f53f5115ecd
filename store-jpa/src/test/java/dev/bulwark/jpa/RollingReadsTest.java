package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.bulwark.RateLimitType;
import dev.bulwark.jpa.setup.DataSourceUnit;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.jpa.setup.StoreUnit;
import dev.bulwark.jpa.tx.ResourceLocalUnitOfWork;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A ROLLING reservation reads what expired plus a few rows, not its limit's grant log: counted as
 * the rows the database hands the reserving thread (limit row, clock and grant rows together). It
 * used to read the whole log with the limit's row locked (1,002 rows at a log of 1,000, 302 with
 * 300 grants expired).
 */
class RollingReadsTest {

  private static final long HOUR = 3_600_000_000_000L;
  private static final long SECOND = 1_000_000_000L;

  /** The limit's row, the clock, the newest's neighbours and the oldest two, with room to spare. */
  private static final long FEW_ROWS = 8;

  private final String prefix = JpaStoreFixture.newPrefix();
  private TestDatabase database;
  private HikariDataSource pool;
  private StoreUnit unit;
  private JpaStore store;
  private RowsRead rowsRead;

  static Stream<Arguments> units() {
    return Stream.of(
        Arguments.of(TestDatabase.H2, Provider.HIBERNATE),
        Arguments.of(TestDatabase.POSTGRESQL, Provider.HIBERNATE),
        Arguments.of(TestDatabase.POSTGRESQL, Provider.ECLIPSELINK),
        Arguments.of(TestDatabase.MARIADB, Provider.HIBERNATE));
  }

  private void open(TestDatabase database, Provider provider) {
    this.database = database;
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(database.url());
    config.setUsername(database.user());
    config.setPassword(database.password());
    config.setMaximumPoolSize(4);
    pool = new HikariDataSource(config);
    rowsRead = new RowsRead(pool);
    Map<String, String> settings =
        Map.of(
            "bulwark.jpa.datasource",
            "counted",
            "bulwark.jpa.table-prefix",
            prefix,
            "bulwark.jpa.schema-generation",
            "create",
            "bulwark.jpa.provider",
            provider.className);
    JpaSettings jpa = JpaSettings.from(key -> Optional.ofNullable(settings.get(key)));
    unit = DataSourceUnit.open(rowsRead.dataSource(), "counted", jpa);
    store =
        JpaStore.on(
            new ResourceLocalUnitOfWork(unit.factory()),
            unit.dialect(),
            null,
            jpa,
            (request, token) -> {},
            () -> {});
  }

  @AfterEach
  void close() throws Exception {
    if (store != null) {
      store.close();
    }
    if (unit != null) {
      unit.close();
    }
    if (pool != null) {
      pool.close();
    }
    if (database != null) {
      database.dropTables(prefix);
    }
  }

  @ParameterizedTest(name = "{0} with {1}")
  @MethodSource("units")
  void aReservationReadsAFewRowsHoweverLongTheLog(TestDatabase database, Provider provider) {
    open(database, provider);
    RateSpec spec = new RateSpec("rolling-long", RateLimitType.ROLLING, 1_000_000, HOUR);
    grant(spec, 10);
    long atTen = reservationRows(spec);
    grant(spec, 500 - 11);

    long atFiveHundred = reservationRows(spec);

    assertThat(atTen).as("rows read at a log of 10").isLessThanOrEqualTo(FEW_ROWS);
    assertThat(atFiveHundred).as("rows read at a log of 500").isLessThanOrEqualTo(FEW_ROWS);
    assertThat(database.rows(prefix, "rate_grant")).isEqualTo(501);
  }

  @ParameterizedTest(name = "{0} with {1}")
  @MethodSource("units")
  void expiredGrantsCostTheLogarithmOfTheirNumber(TestDatabase database, Provider provider)
      throws InterruptedException {
    open(database, provider);
    int expiring = 300;
    grant(new RateSpec("rolling-expiring", RateLimitType.ROLLING, 1_000_000, HOUR), expiring);
    long lastGrantMicros = database.nowMicros();
    // the same limit with a window of one second: every grant has left it a second after the last
    RateSpec shortened = new RateSpec("rolling-expiring", RateLimitType.ROLLING, 1_000_000, SECOND);
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (database.nowMicros() <= lastGrantMicros + SECOND / 1000) {
      assertThat(System.nanoTime()).as("the database's clock moves").isLessThan(deadline);
      Thread.sleep(50);
    }

    long rows = reservationRows(shortened);

    // a galloping search: 2 rows a probe, at most 2 × log2(300) probes
    assertThat(rows)
        .as("rows read with " + expiring + " grants expired")
        .isLessThanOrEqualTo(FEW_ROWS + 4 * 9);
    assertThat(database.rows(prefix, "rate_grant"))
        .as("the expired grants are deleted, the new one kept")
        .isEqualTo(1);
  }

  @ParameterizedTest(name = "{0} with {1}")
  @MethodSource("units")
  void aLogWrittenWithoutItsSizeIsCountedOnce(TestDatabase database, Provider provider)
      throws SQLException {
    open(database, provider);
    RateSpec spec = new RateSpec("rolling-older", RateLimitType.ROLLING, 3, HOUR);
    grant(spec, 3);
    // as a version that kept no size on the limit's row leaves it
    setRateLongs(spec.name(), 0, 0);

    RateDecision fourth = store.rates().reserve(spec, 0);

    assertThat(fourth.granted()).as("the fourth grant of 3 per hour").isFalse();
    assertThat(fourth.delayNanos()).isGreaterThan(HOUR - 60_000_000_000L);
    assertThat(rateFirst(spec.name())).as("the size, counted and kept").isEqualTo(3);
    assertThat(reservationRows(spec)).isLessThanOrEqualTo(FEW_ROWS);
  }

  private void grant(RateSpec spec, int times) {
    for (int i = 0; i < times; i++) {
      assertThat(store.rates().reserve(spec, 0).granted()).isTrue();
    }
  }

  /** The rows one reservation of {@code spec} reads. */
  private long reservationRows(RateSpec spec) {
    long rows = rowsRead.during(() -> store.rates().reserve(spec, 0));
    assertThat(rows).as("a reservation reads rows through the counted data source").isPositive();
    return rows;
  }

  private void setRateLongs(String name, long first, long second) throws SQLException {
    try (Connection connection = database.connect();
        PreparedStatement update =
            connection.prepareStatement(
                "UPDATE " + prefix + "limit SET rate_first = ?, rate_second = ? WHERE name = ?")) {
      update.setLong(1, first);
      update.setLong(2, second);
      update.setString(3, name);
      assertThat(update.executeUpdate()).isEqualTo(1);
      if (!connection.getAutoCommit()) {
        connection.commit();
      }
    }
  }

  private long rateFirst(String name) throws SQLException {
    try (Connection connection = database.connect();
        PreparedStatement read =
            connection.prepareStatement(
                "SELECT rate_first FROM " + prefix + "limit WHERE name = ?")) {
      read.setString(1, name);
      try (ResultSet row = read.executeQuery()) {
        assertThat(row.next()).isTrue();
        return row.getLong(1);
      }
    }
  }
}
