package dev.bulwark.jpa;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** Applies the DDL file the store ships for a database, under a table prefix. */
final class ShippedDdl {

  private ShippedDdl() {}

  static void apply(TestDatabase database, String prefix) {
    String resource = database.dialect.ddlResource();
    String script;
    try (InputStream in = ShippedDdl.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new AssertionError("no " + resource + " in the jar");
      }
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    StringBuilder code = new StringBuilder();
    for (String line : script.split("\n")) {
      if (!line.startsWith("--")) {
        code.append(line).append('\n');
      }
    }
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      for (String sql : code.toString().split(";")) {
        if (!sql.isBlank()) {
          statement.execute(sql.replace("bulwark_", prefix));
        }
      }
    } catch (SQLException e) {
      throw new AssertionError("applying " + resource + " failed", e);
    }
  }
}
