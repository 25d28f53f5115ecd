package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.PermitSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One renewal of leases of different lengths extends each by the length its lease names, from the
 * database's now: the statement that renews them all picks each row's length.
 */
class RenewalLengthsTest {

  /** The lease of the acquire: long enough that none runs out before the renewal. */
  private static final long ACQUIRED_MILLIS = 120_000;

  private static final long SHORT_MILLIS = 5_000;
  private static final long LONG_MILLIS = 600_000;
  private static final long THIRD_MILLIS = 60_000;

  @ParameterizedTest
  @EnumSource(TestDatabase.class)
  void eachLeaseIsExtendedByItsOwnLength(TestDatabase database) {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
    try (JpaStore store = fixture.open(fixture.config(), (request, token) -> {})) {
      PermitSpec spec = new PermitSpec("renewal-lengths", 3, ACQUIRED_MILLIS);
      for (long request = 1; request <= 3; request++) {
        assertThat(store.permits().acquire(spec, request, false)).isEqualTo(Grant.GRANTED);
      }
      long before = database.nowMicros();
      List<Lease> lost =
          store.renew(
              List.of(
                  lease(spec, 1, SHORT_MILLIS),
                  lease(spec, 2, LONG_MILLIS),
                  lease(spec, 3, THIRD_MILLIS)));
      long after = database.nowMicros();

      assertThat(lost).isEmpty();
      assertExtendedBy(fixture, store, 1, SHORT_MILLIS, before, after);
      assertExtendedBy(fixture, store, 2, LONG_MILLIS, before, after);
      assertExtendedBy(fixture, store, 3, THIRD_MILLIS, before, after);
    } finally {
      fixture.close();
    }
  }

  private static Lease lease(PermitSpec spec, long request, long millis) {
    return new Lease(Lease.Kind.PERMIT, spec.name(), "", request, millis);
  }

  /** The request's lease ends {@code millis} after a moment of the renewal. */
  private static void assertExtendedBy(
      JpaStoreFixture fixture, JpaStore store, long request, long millis, long before, long after) {
    String limit = RowIds.limit(StoreCore.PERMITS, "renewal-lengths");
    String id = RowIds.claim(limit, "", store.instance(), request);
    try (Connection connection = fixture.database().connect();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT expires_at FROM " + fixture.prefix() + "claim WHERE id = ?")) {
      query.setString(1, id);
      try (ResultSet row = query.executeQuery()) {
        assertThat(row.next()).as("request %d's row", request).isTrue();
        assertThat(row.getLong(1))
            .as("request %d's lease end", request)
            .isBetween(before + millis * 1000, after + millis * 1000);
      }
    } catch (SQLException e) {
      throw new AssertionError("cannot read the claim's row", e);
    }
  }
}
