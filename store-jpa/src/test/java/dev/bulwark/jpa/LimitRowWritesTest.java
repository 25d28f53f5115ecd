package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.PermitSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A step writes the limit's row only when one of its counters moves: a request that queues takes
 * the next arrival number, a write grant the next token; a grant at once, a read grant and a
 * release leave the row as it was.
 */
class LimitRowWritesTest {

  private static final long LEASE = 60_000;

  @ParameterizedTest
  @EnumSource(TestDatabase.class)
  void onlyQueueingAndWriteGrantsMoveTheLimitsCounters(TestDatabase database) {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
    AtomicLong requests = new AtomicLong();
    try (JpaStore store = fixture.open(fixture.config(), (request, token) -> {})) {
      PermitSpec bulkhead = new PermitSpec("row-writes", 2, LEASE);
      long first = requests.incrementAndGet();
      assertThat(store.permits().acquire(bulkhead, first, false)).isEqualTo(Grant.GRANTED);
      List<Long> created = counters(fixture, StoreCore.PERMITS, bulkhead.name());

      long second = requests.incrementAndGet();
      assertThat(store.permits().acquire(bulkhead, second, false)).isEqualTo(Grant.GRANTED);
      assertThat(store.permits().release(bulkhead, second)).isTrue();
      assertThat(counters(fixture, StoreCore.PERMITS, bulkhead.name()))
          .as("fencing, next_seq after grants at once and a release")
          .isEqualTo(created);

      long holder = requests.incrementAndGet();
      assertThat(store.permits().acquire(bulkhead, holder, false)).isEqualTo(Grant.GRANTED);
      long queued = requests.incrementAndGet();
      assertThat(store.permits().acquire(bulkhead, queued, true)).isEqualTo(Grant.QUEUED);
      assertThat(counters(fixture, StoreCore.PERMITS, bulkhead.name()))
          .as("a queued request takes the next arrival number")
          .containsExactly(created.get(0), created.get(1) + 1);

      LockSpec lock = new LockSpec("row-writes", LEASE);
      long reader = requests.incrementAndGet();
      assertThat(store.locks().acquire(lock, "k", LockMode.READ, reader, false).isGranted())
          .isTrue();
      List<Long> lockCreated = counters(fixture, StoreCore.LOCKS, lock.name());
      assertThat(store.locks().release(lock, "k", reader)).isTrue();
      assertThat(counters(fixture, StoreCore.LOCKS, lock.name())).isEqualTo(lockCreated);

      long writer = requests.incrementAndGet();
      Grant write = store.locks().acquire(lock, "k", LockMode.WRITE, writer, false);
      assertThat(write.fencingToken()).isEqualTo(lockCreated.get(0) + 1);
      assertThat(counters(fixture, StoreCore.LOCKS, lock.name()))
          .as("a write grant takes the next token")
          .containsExactly(lockCreated.get(0) + 1, lockCreated.get(1));
    } finally {
      fixture.close();
    }
  }

  /** fencing and next_seq of a limit's row. */
  private static List<Long> counters(JpaStoreFixture fixture, String kind, String name) {
    try (Connection connection = fixture.database().connect();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT fencing, next_seq FROM " + fixture.prefix() + "limit WHERE id = ?")) {
      query.setString(1, RowIds.limit(kind, name));
      try (ResultSet row = query.executeQuery()) {
        assertThat(row.next()).as("the limit's row exists").isTrue();
        return List.of(row.getLong(1), row.getLong(2));
      }
    } catch (SQLException e) {
      throw new AssertionError("cannot read the limit's row", e);
    }
  }
}
