package dev.bulwark.jpa;

import jakarta.persistence.OptimisticLockException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One statement of the store's own with its bound parameters (the store's SQL text holds no user
 * value), and how several run: sent together where the driver takes them as one prepared statement
 * (a round trip for all), else one after the other.
 *
 * @param rows the rows the statement must change, or {@link #ANY_ROWS}
 */
record Sql(String text, List<Object> parameters, int rows) {

  static final int ANY_ROWS = -1;

  Sql(String text, List<Object> parameters) {
    this(text, parameters, ANY_ROWS);
  }

  static Sql of(String text, Object... parameters) {
    return new Sql(text, List.of(parameters));
  }

  /** This statement, which must change exactly {@code count} rows. */
  Sql changing(int count) {
    return new Sql(text, parameters, count);
  }

  /**
   * Runs {@code statements} in order. A statement that changed other than the rows it must (a claim
   * the cleanup deleted meanwhile) fails the transaction as a conflict, which runs it again.
   */
  static void runAll(Connection connection, boolean together, List<Sql> statements)
      throws SQLException {
    if (statements.isEmpty()) {
      return;
    }
    if (!together || statements.size() == 1) {
      for (Sql statement : statements) {
        try (PreparedStatement prepared = statement.prepare(connection)) {
          boolean rowsAnswered = prepared.execute();
          statement.check(rowsAnswered ? ANY_ROWS : prepared.getUpdateCount());
        }
      }
      return;
    }
    try (PreparedStatement prepared = joined(statements).prepare(connection)) {
      boolean rowsAnswered = prepared.execute();
      // the driver answers one result per statement, in order
      for (Sql statement : statements) {
        statement.check(rowsAnswered ? ANY_ROWS : prepared.getUpdateCount());
        rowsAnswered = prepared.getMoreResults();
      }
    }
  }

  private void check(int changed) {
    if (rows != ANY_ROWS && changed != rows) {
      throw new OptimisticLockException(
          "Bulwark: a statement changed " + changed + " rows instead of " + rows + ": " + text);
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
