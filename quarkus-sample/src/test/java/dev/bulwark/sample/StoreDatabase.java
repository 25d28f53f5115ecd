package dev.bulwark.sample;

import dev.bulwark.jpa.entity.RowIds;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;

/**
 * The database of a JPA profile as the tests read it: over a JDBC connection of their own, never
 * the application's, so what they see is what the store committed.
 */
record StoreDatabase(String url, String user, String password) {

  /**
   * Creates the store's tables from the DDL the store ships ({@code ddlResource} in its jar) unless
   * they are there.
   */
  void createTablesUnlessPresent(String ddlResource) {
    try (Connection connection = DriverManager.getConnection(url, user, password);
        Statement statement = connection.createStatement()) {
      try {
        statement.executeQuery("SELECT COUNT(*) FROM bulwark_limit").close();
        return;
      } catch (SQLException absent) {
        // created below
      }
      for (String sql : ddl(ddlResource).split(";")) {
        if (!sql.isBlank()) {
          statement.execute(sql);
        }
      }
    } catch (SQLException e) {
      throw new AssertionError("Cannot create the store's tables at " + url, e);
    }
  }

  /** Records the definition of a limit as the store's instance {@code instance} would. */
  void recordDefinition(String kind, String name, String definition, String instance) {
    try (Connection connection = DriverManager.getConnection(url, user, password);
        PreparedStatement delete =
            connection.prepareStatement("DELETE FROM bulwark_limit WHERE id = ?");
        PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO bulwark_limit (id, kind, name, fencing, next_seq, definition,"
                    + " defined_by, rate_first, rate_second) VALUES (?, ?, ?, ?, 0, ?, ?, 0, 0)")) {
      String id = RowIds.limit(kind, name);
      delete.setString(1, id);
      delete.executeUpdate();
      insert.setString(1, id);
      insert.setString(2, kind);
      insert.setString(3, name);
      insert.setLong(4, System.currentTimeMillis() * 1000);
      insert.setString(5, definition);
      insert.setString(6, instance);
      insert.executeUpdate();
    } catch (SQLException e) {
      throw new AssertionError("Cannot record a definition at " + url, e);
    }
  }

  /** The instance that recorded the definition of a limit last, or null when none did. */
  String definedBy(String kind, String name) {
    try (Connection connection = DriverManager.getConnection(url, user, password);
        PreparedStatement query =
            connection.prepareStatement("SELECT defined_by FROM bulwark_limit WHERE id = ?")) {
      query.setString(1, RowIds.limit(kind, name));
      try (ResultSet row = query.executeQuery()) {
        return row.next() ? row.getString(1) : null;
      }
    } catch (SQLException e) {
      throw new AssertionError("Cannot read the store's tables at " + url, e);
    }
  }

  /** The shipped DDL without its comments. */
  private static String ddl(String resource) {
    try (InputStream in = StoreDatabase.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new AssertionError("no " + resource + " on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(line -> !line.startsWith("--"))
          .collect(Collectors.joining("\n"));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

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
