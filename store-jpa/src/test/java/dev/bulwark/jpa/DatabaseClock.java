package dev.bulwark.jpa;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The test database's clock read over one connection kept open: a reading then costs one round
 * trip, not a connection's set-up, so the readings a test takes around a call lie close to it.
 */
final class DatabaseClock implements AutoCloseable {

  private final TestDatabase database;
  private Connection connection;
  private PreparedStatement query;

  DatabaseClock(TestDatabase database) {
    this.database = database;
  }

  /** The database's clock, in microseconds since the epoch, read as the store reads it. */
  synchronized long nowMicros() {
    try {
      if (connection == null) {
        connection = database.connect();
        query = connection.prepareStatement(database.dialect.nowMicrosSql());
      }
      try (ResultSet result = query.executeQuery()) {
        result.next();
        return result.getLong(1);
      }
    } catch (SQLException e) {
      throw new AssertionError("cannot read the clock of " + database, e);
    }
  }

  @Override
  public synchronized void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        // the database closes it with the session; nothing of the test depends on it
      }
      connection = null;
    }
  }
}
