package dev.bulwark.jpa.setup;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What the store learns of a database from JDBC metadata: its dialect and which tables it has. */
final class DatabaseMetadata {

  private DatabaseMetadata() {}

  /** The database's dialect, or a failure naming {@code bulwark.jpa.url} for one not supported. */
  static Dialect dialect(DatabaseMetaData metaData, JpaSettings settings) throws SQLException {
    Dialect dialect = Dialect.ofProduct(metaData.getDatabaseProductName());
    if (dialect == null) {
      throw new InvalidJpaSettingException(
          "bulwark.jpa.url="
              + settings.redactedUrl()
              + ": "
              + metaData.getDatabaseProductName()
              + " is not supported; PostgreSQL, MariaDB and H2 are");
    }
    return dialect;
  }

  /** The store's tables that the database does not have. */
  static List<String> missingTables(DatabaseMetaData metaData, TableNames names)
      throws SQLException {
    List<String> missing = new ArrayList<>();
    for (String table : names.all()) {
      if (!tableExists(metaData, table)) {
        missing.add(table);
      }
    }
    return missing;
  }

  private static boolean tableExists(DatabaseMetaData metaData, String table) throws SQLException {
    String catalog = metaData.getConnection().getCatalog();
    String schema = metaData.getConnection().getSchema();
    for (String candidate :
        List.of(table, table.toLowerCase(Locale.ROOT), table.toUpperCase(Locale.ROOT))) {
      try (ResultSet tables =
          metaData.getTables(catalog, schema, escaped(candidate, metaData), null)) {
        if (tables.next()) {
          return true;
        }
      }
    }
    return false;
  }

  /** The name as a pattern that matches only itself ({@code _} is a wildcard in metadata calls). */
  private static String escaped(String name, DatabaseMetaData metaData) throws SQLException {
    String escape = metaData.getSearchStringEscape();
    return escape == null ? name : name.replace("_", escape + "_");
  }
}
