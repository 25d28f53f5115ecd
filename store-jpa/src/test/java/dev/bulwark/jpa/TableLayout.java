package dev.bulwark.jpa;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The store's tables under one prefix as the database describes them (JDBC metadata), with the
 * prefix taken out: columns (name, kind of type, length, nullability), primary keys and the column
 * lists of the other indexes. Two layouts are equal when the tables would behave the same.
 */
record TableLayout(Map<String, Set<String>> columns, Map<String, Set<String>> indexes) {

  static TableLayout read(TestDatabase database, String prefix) {
    Map<String, Set<String>> columns = new TreeMap<>();
    Map<String, Set<String>> indexes = new TreeMap<>();
    try (Connection connection = database.connect()) {
      DatabaseMetaData metaData = connection.getMetaData();
      for (String table : dev.bulwark.jpa.setup.TableNames.TABLES) {
        String name = physical(metaData, prefix + table);
        Set<String> described = new TreeSet<>();
        try (ResultSet rs =
            metaData.getColumns(connection.getCatalog(), connection.getSchema(), name, null)) {
          while (rs.next()) {
            described.add(
                rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT)
                    + " "
                    + kind(rs.getInt("DATA_TYPE"), rs.getInt("COLUMN_SIZE"))
                    + (rs.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls ? " not null" : ""));
          }
        }
        try (ResultSet rs =
            metaData.getPrimaryKeys(connection.getCatalog(), connection.getSchema(), name)) {
          List<String> key = new ArrayList<>();
          while (rs.next()) {
            key.add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
          }
          described.add("primary key " + key);
        }
        columns.put(table, described);
        indexes.put(table, indexColumns(metaData, connection, name));
      }
    } catch (SQLException e) {
      throw new AssertionError("cannot read the tables " + prefix + "* on " + database, e);
    }
    return new TableLayout(columns, indexes);
  }

  /** The name as the database stores it (PostgreSQL folds to lower case, H2 to upper). */
  private static String physical(DatabaseMetaData metaData, String name) throws SQLException {
    if (metaData.storesUpperCaseIdentifiers()) {
      return name.toUpperCase(Locale.ROOT);
    }
    return metaData.storesLowerCaseIdentifiers() ? name.toLowerCase(Locale.ROOT) : name;
  }

  private static Set<String> indexColumns(
      DatabaseMetaData metaData, Connection connection, String table) throws SQLException {
    Map<String, TreeMap<Short, String>> byIndex = new TreeMap<>();
    try (ResultSet rs =
        metaData.getIndexInfo(
            connection.getCatalog(), connection.getSchema(), table, false, true)) {
      while (rs.next()) {
        String index = rs.getString("INDEX_NAME");
        if (index == null) {
          continue;
        }
        byIndex
            .computeIfAbsent(index.toLowerCase(Locale.ROOT), i -> new TreeMap<>())
            .put(
                rs.getShort("ORDINAL_POSITION"),
                rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
      }
    }
    Set<String> lists = new TreeSet<>();
    byIndex.values().forEach(cols -> lists.add(String.join(", ", cols.values())));
    return lists;
  }

  /** BIT(1), TINYINT(1) and BOOLEAN are one kind: each maps a Java boolean. */
  private static String kind(int type, int size) {
    return switch (type) {
      case Types.VARCHAR, Types.NVARCHAR, Types.CHAR -> "varchar(" + size + ")";
      case Types.BIGINT -> "bigint";
      case Types.BOOLEAN, Types.BIT, Types.TINYINT -> "boolean";
      default -> "type " + type;
    };
  }
}
