package dev.bulwark.jpa.setup;

import java.util.List;
import java.util.Locale;

/**
 * The store's table and index names under a prefix. The entities are mapped to {@code bulwark_*};
 * the provider's naming hook ({@link HibernateTableNames}, {@link EclipseLinkTableNames}) swaps
 * that default prefix for the configured one, so two prefixes in one schema are two independent
 * stores. Index names derive from the physical table name, since on some databases (PostgreSQL)
 * index names share one namespace per schema.
 */
public record TableNames(String prefix) {

  /** The tables, by their name without the prefix. */
  public static final List<String> TABLES = List.of("limit", "claim", "rate_grant");

  /** The physical name of a table mapped as {@code bulwark_<name>}; other names unchanged. */
  public String physical(String mapped) {
    String lower = mapped.toLowerCase(Locale.ROOT);
    return lower.startsWith(JpaSettings.DEFAULT_TABLE_PREFIX)
        ? prefix + lower.substring(JpaSettings.DEFAULT_TABLE_PREFIX.length())
        : mapped;
  }

  /** Whether {@code mapped} is one of the store's tables. */
  public boolean isStoreTable(String mapped) {
    return mapped.toLowerCase(Locale.ROOT).startsWith(JpaSettings.DEFAULT_TABLE_PREFIX);
  }

  /** The name of the index on {@code columns} of {@code physicalTable}. */
  public static String index(String physicalTable, List<String> columns) {
    return (physicalTable + "_ix_" + columns.get(0)).toLowerCase(Locale.ROOT);
  }

  /** Every physical table name, for start checks and cleanup. */
  public List<String> all() {
    return TABLES.stream().map(t -> prefix + t).toList();
  }
}
