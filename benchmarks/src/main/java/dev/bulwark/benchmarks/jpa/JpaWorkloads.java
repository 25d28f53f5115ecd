package dev.bulwark.benchmarks.jpa;

import dev.bulwark.benchmarks.GuardedContainer;
import dev.bulwark.benchmarks.Workloads;
import java.util.Map;

/**
 * {@link dev.bulwark.benchmarks.Interleaved}'s workloads on PostgreSQL: the floors and the guards.
 */
public final class JpaWorkloads {

  private JpaWorkloads() {}

  /** The JDBC floors: {@code floorSharedRow…} and {@code floorOwnRow…}. */
  public static Workloads floors() {
    JdbcFloor floor = new JdbcFloor();
    return new Workloads() {
      @Override
      public Call call(String name) {
        boolean own = name.startsWith("floorOwnRow");
        if (!own && !name.startsWith("floorSharedRow")) {
          throw new IllegalArgumentException("no JDBC floor " + name);
        }
        return random -> {
          long thread = Thread.currentThread().getId();
          floor.transaction(own ? 1 + (int) (thread % JdbcFloor.OWN_ROWS) : JdbcFloor.SHARED_ROW);
        };
      }

      @Override
      public void close() {
        floor.close();
      }
    };
  }

  /**
   * The guarded cases through the interceptors, in a schema of {@code label}'s own, created afresh
   * (two builds may map different tables), so that two builds never meet in the database.
   */
  public static Workloads guarded(String label) {
    String schema =
        PostgresTarget.freshSchema(PostgresTarget.SCHEMA + "_" + label.replaceAll("\\W", "_"));
    return Workloads.guarded(
        GuardedContainer.boot(
            Map.of(
                "bulwark.store",
                "jpa",
                "bulwark.jpa.url",
                PostgresTarget.schemaUrl(schema),
                "bulwark.jpa.user",
                PostgresTarget.USER,
                "bulwark.jpa.password",
                PostgresTarget.PASSWORD,
                "bulwark.jpa.schema-generation",
                "create",
                "bulwark.jpa.pool-size",
                String.valueOf(PostgresTarget.POOL_SIZE))));
  }
}
