package dev.bulwark.jpa;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One statement of the store's own with its bound parameters (the store's SQL text holds no user
 * value), and how several run: sent together where the driver takes them as one prepared statement
 * (a round trip for all), else one after the other.
 */
record Sql(String text, List<Object> parameters) {

  static Sql of(String text, Object... parameters) {
    return new Sql(text, List.of(parameters));
  }

  /** Runs {@code statements} in order; their results, row counts included, are not read. */
  static void runAll(Connection connection, boolean together, List<Sql> statements)
      throws SQLException {
    if (statements.isEmpty()) {
      return;
    }
    if (!together || statements.size() == 1) {
      for (Sql statement : statements) {
        try (PreparedStatement prepared = statement.prepare(connection)) {
          prepared.execute();
        }
      }
      return;
    }
    try (PreparedStatement prepared = joined(statements).prepare(connection)) {
      prepared.execute();
      // the driver has run them all; reading to the end surfaces nothing new but frees the results
      while (prepared.getMoreResults() || prepared.getUpdateCount() != -1) {
        // next result
      }
    }
  }

  /** The statements as one text, their parameters in order. */
  static Sql joined(List<Sql> statements) {
    StringBuilder text = new StringBuilder();
    List<Object> parameters = new ArrayList<>();
    for (Sql statement : statements) {
      if (text.length() > 0) {
        text.append(";\n");
      }
      text.append(statement.text());
      parameters.addAll(statement.parameters());
    }
    return new Sql(text.toString(), parameters);
  }

  PreparedStatement prepare(Connection connection) throws SQLException {
    PreparedStatement prepared = connection.prepareStatement(text);
    try {
      int index = 1;
      for (Object parameter : parameters) {
        if (parameter instanceof String text) {
          prepared.setString(index++, text);
        } else if (parameter instanceof Long number) {
          prepared.setLong(index++, number);
        } else if (parameter instanceof Boolean flag) {
          prepared.setBoolean(index++, flag);
        } else {
          throw new IllegalArgumentException("not a parameter type of the store: " + parameter);
        }
      }
      return prepared;
    } catch (SQLException | RuntimeException e) {
      prepared.close();
      throw e;
    }
  }
}
