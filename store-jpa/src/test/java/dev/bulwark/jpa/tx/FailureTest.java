package dev.bulwark.jpa.tx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.jpa.setup.Dialect;
import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

/**
 * What a failed transaction means, for errors the test databases here cannot be made to raise on
 * demand: each as its driver reports it (SQLState and vendor code), wrapped as a provider wraps it.
 */
class FailureTest {

  @Test
  void mariadbsSnapshotIsolationErrorIsAConflictToRetry() {
    // MariaDB 11.6+, innodb_snapshot_isolation=ON: ER_CHECKREAD
    SQLException changed =
        new SQLException("Record has changed since last read in table 't'", "HY000", 1020);
    assertThat(Failure.of(new PersistenceException(changed))).isEqualTo(Failure.CONFLICT);
  }

  @Test
  void h2sConcurrentUpdateIsAConflictToRetry() {
    SQLException concurrent = new SQLException("Concurrent update in table \"T\"", "90131", 90131);
    assertThat(Failure.of(new PersistenceException(concurrent))).isEqualTo(Failure.CONFLICT);
  }

  @Test
  void aNullClockFailsInsteadOfReadingAs1970() {
    assertThatThrownBy(() -> Dialect.clock(null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("NULL");
    assertThat(Failure.of(new IllegalStateException("no clock"))).isEqualTo(Failure.FAULT);
    assertThat(Dialect.clock(1_700_000_000_000_000L)).isEqualTo(1_700_000_000_000_000L);
  }

  @Test
  void aBusyPoolIsNotAnOutageButAFailedConnectionIs() {
    SQLTransientConnectionException busy =
        new SQLTransientConnectionException(
            "bulwark-jpa - Connection is not available, request timed out after 500ms"
                + " (total=1, active=1, idle=0, waiting=1)");
    assertThat(Failure.of(new PersistenceException(busy))).isEqualTo(Failure.POOL_EXHAUSTED);
    assertThat(Failure.unreachable(new PersistenceException(busy))).isNull();
    SQLTransientConnectionException down =
        new SQLTransientConnectionException(
            "bulwark-jpa - Connection is not available, request timed out after 500ms",
            "08001",
            new SQLException("Connection refused", "08001"));
    assertThat(Failure.of(new PersistenceException(down))).isEqualTo(Failure.UNREACHABLE);
    SQLTransientConnectionException noneOpen =
        new SQLTransientConnectionException(
            "bulwark-jpa - Connection is not available, request timed out after 500ms"
                + " (total=0, active=0, idle=0, waiting=3)");
    assertThat(Failure.of(new PersistenceException(noneOpen))).isEqualTo(Failure.UNREACHABLE);
  }
}
