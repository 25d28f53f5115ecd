package dev.bulwark.jpa;

import dev.bulwark.jpa.entity.LimitRow;
import dev.bulwark.jpa.setup.Dialect;
import jakarta.persistence.EntityManager;

/**
 * Creates a limit's row unless it exists, in one statement that a concurrent creation of the same
 * row does not fail: the database's own insert-if-absent, which waits for the other transaction and
 * then leaves its row alone. Several JVMs meeting a new limit at once thus create one row between
 * them without a duplicate-key error, which the JPA provider would log as an error although the
 * step would be run again and succeed. H2 has no race-free form: its {@code MERGE} skips a row that
 * exists but still fails on one another transaction is inserting, so there the JVM that loses the
 * race logs the duplicate key and runs its step again.
 */
final class LimitRowInsert {

  private static final String COLUMNS =
      "(id, kind, name, fencing, next_seq, rate_first, rate_second)";
  private static final String VALUES = "(?1, ?2, ?3, ?4, 0, 0, 0)";

  /** The insert-if-absent, or null where the database has none. */
  private final String sql;

  /**
   * @param table the limit table's name as SQL refers to it, as the unit's provider maps it (schema
   *     and prefix included)
   */
  LimitRowInsert(Dialect dialect, String table) {
    this.sql =
        switch (dialect) {
          case POSTGRESQL ->
              "INSERT INTO "
                  + table
                  + " "
                  + COLUMNS
                  + " VALUES "
                  + VALUES
                  + " ON CONFLICT (id) DO NOTHING";
          // not INSERT IGNORE, which would turn other errors (a name too long) into warnings
          case MARIADB ->
              "INSERT INTO "
                  + table
                  + " "
                  + COLUMNS
                  + " VALUES "
                  + VALUES
                  + " ON DUPLICATE KEY UPDATE id = id";
          case H2 ->
              "MERGE INTO "
                  + table
                  + " t USING (VALUES "
                  + VALUES
                  + ")"
                  + " s(id, kind, name, fencing, next_seq, rate_first, rate_second) ON t.id = s.id"
                  + " WHEN NOT MATCHED THEN INSERT "
                  + COLUMNS
                  + " VALUES (s.id, s.kind, s.name, s.fencing, 0, 0, 0)";
        };
  }

  /**
   * Creates the row of limit {@code id} with its fencing counter at {@code fencing}, unless it
   * exists or another transaction creates it meanwhile.
   */
  void insertIfAbsent(EntityManager em, String id, String kind, String name, long fencing) {
    if (sql == null) {
      em.persist(new LimitRow(id, kind, name, fencing));
      em.flush();
      return;
    }
    em.createNativeQuery(sql)
        .setParameter(1, id)
        .setParameter(2, kind)
        .setParameter(3, name)
        .setParameter(4, fencing)
        .executeUpdate();
  }
}
