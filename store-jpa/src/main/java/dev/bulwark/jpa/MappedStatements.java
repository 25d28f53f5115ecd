package dev.bulwark.jpa;

import dev.bulwark.jpa.entity.ClaimRow;
import dev.bulwark.jpa.entity.LimitRow;
import dev.bulwark.jpa.setup.Dialect;
import dev.bulwark.jpa.setup.MappedTables;
import dev.bulwark.jpa.setup.TableNames;
import jakarta.persistence.EntityManager;

/**
 * The store's own SQL on the tables as the unit's provider maps the entities (schema, quoting, the
 * table prefix or an application's renaming): every native statement takes its table names from
 * here, so none writes to a table the provider does not use.
 *
 * @param claims the statements of steps and renewal
 * @param limitRowInsert the insert-if-absent of a limit's row
 * @param rateRow the optimistic read and swap of a SMOOTH or FIXED rate state
 */
record MappedStatements(ClaimSql claims, LimitRowInsert limitRowInsert, RateRow rateRow) {

  /** The statements on the tables {@code em}'s unit maps the store's entities to. */
  static MappedStatements of(Dialect dialect, EntityManager em, TableNames names) {
    String limits = MappedTables.of(em, LimitRow.class, "bulwark_limit", names);
    String claims = MappedTables.of(em, ClaimRow.class, "bulwark_claim", names);
    return new MappedStatements(
        new ClaimSql(dialect, limits, claims),
        new LimitRowInsert(dialect, limits),
        new RateRow(dialect, limits));
  }
}
