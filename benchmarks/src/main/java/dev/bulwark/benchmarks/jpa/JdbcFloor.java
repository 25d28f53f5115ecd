package dev.bulwark.benchmarks.jpa;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The floor: the least a database-backed limit can pay per decision, one JDBC transaction that
 * locks a row and writes it back ({@code SELECT … FOR UPDATE}, {@code UPDATE}, {@code COMMIT}) on a
 * pooled connection with prepared statements. Every limit's state lives in a row that it must lock
 * to decide atomically, so no store can do a decision in less; an acquire plus a release is two
 * decisions.
 */
public final class JdbcFloor implements AutoCloseable {

  static final String TABLE = "bench_floor";

  /** The row every caller shares, as all callers of one limit share that limit's row. */
  static final int SHARED_ROW = 0;

  /** Rows 1 … this: one per benchmark thread, for keyed locks that never meet. */
  static final int OWN_ROWS = 64;

  private final HikariDataSource pool;

  public JdbcFloor() {
    PostgresTarget.prepare(
        "CREATE TABLE IF NOT EXISTS " + TABLE + " (id INT PRIMARY KEY, n BIGINT NOT NULL)",
        "INSERT INTO "
            + TABLE
            + " SELECT g, 0 FROM generate_series(0, "
            + OWN_ROWS
            + ") g ON CONFLICT (id) DO NOTHING");
    pool = PostgresTarget.pool("bench-floor");
  }

  /** One transaction that locks row {@code id}, reads it and writes it back incremented. */
  public long transaction(int id) {
    try (Connection connection = pool.getConnection()) {
      connection.setAutoCommit(false);
      try (PreparedStatement select =
              connection.prepareStatement("SELECT n FROM " + TABLE + " WHERE id = ? FOR UPDATE");
          PreparedStatement update =
              connection.prepareStatement("UPDATE " + TABLE + " SET n = ? WHERE id = ?")) {
        select.setInt(1, id);
        long n;
        try (ResultSet row = select.executeQuery()) {
          row.next();
          n = row.getLong(1);
        }
        update.setLong(1, n + 1);
        update.setInt(2, id);
        update.executeUpdate();
        connection.commit();
        return n;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("floor transaction failed", e);
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}
