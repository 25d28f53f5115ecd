package dev.bulwark.sample;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The database of a JPA profile as the tests read it: over a JDBC connection of their own, never
 * the application's, so what they see is what the store committed.
 */
record StoreDatabase(String url, String user, String password) {

  /** The permits of bulkhead {@code name} that are held now (the store's claim rows). */
  int heldPermits(String name) {
    try (Connection connection = DriverManager.getConnection(url, user, password);
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT COUNT(*) FROM bulwark_claim c JOIN bulwark_limit l ON c.limit_id = l.id"
                    + " WHERE l.kind = 'P' AND l.name = ? AND c.held = TRUE")) {
      query.setString(1, name);
      try (ResultSet count = query.executeQuery()) {
        count.next();
        return count.getInt(1);
      }
    } catch (SQLException e) {
      throw new AssertionError("Cannot read the store's tables at " + url, e);
    }
  }
}
