package dev.bulwark.benchmarks.jpa;

import dev.bulwark.RateLimitType;
import dev.bulwark.jpa.JpaStore;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.spi.RateSpec;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What one ROLLING reservation costs on the JPA store (PostgreSQL) as its grant log grows: for each
 * log length, a fresh limit (10⁶ permits per hour, so nothing expires and nothing is rejected) is
 * filled with grants, then {@link #MEASURED} reservations are timed one after another by one caller
 * (the store's {@code reserve} itself, one transaction each), the log passing through the length
 * named half-way. The limit's rows are deleted afterwards. Before the first figure, {@link
 * #JVM_WARM_UP} reservations on a limit of their own warm the JVM up.
 *
 * <p>Arguments: the log lengths, by default {@code 1000 4500}.
 */
public final class RollingLogCost {

  static final int JVM_WARM_UP = 1000;
  static final int WARM_UP = 100;
  static final int MEASURED = 500;
  static final int PERMITS = 1_000_000;
  static final long HOUR_NANOS = 3_600_000_000_000L;

  private RollingLogCost() {}

  public static void main(String[] args) throws Exception {
    int[] lengths =
        args.length == 0
            ? new int[] {1000, 4500}
            : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
    PostgresTarget.prepare();
    Map<String, String> config = new HashMap<>();
    config.put("url", PostgresTarget.schemaUrl());
    config.put("user", PostgresTarget.USER);
    config.put("password", PostgresTarget.PASSWORD);
    config.put("schema-generation", "create");
    config.put("pool-size", "4");
    JpaSettings settings =
        JpaSettings.from(
            key -> Optional.ofNullable(config.get(key.substring("bulwark.jpa.".length()))));
    try (JpaStore store = JpaStore.open(settings, (request, token) -> {})) {
      warmUp(store);
      System.out.printf(
          "%-10s %10s %10s %10s %10s%n", "log rows", "mean ms", "p50 ms", "p99 ms", "rows");
      for (int length : lengths) {
        run(store, length);
      }
    }
  }

  private static void run(JpaStore store, int length) throws SQLException {
    RateSpec spec =
        new RateSpec(
            "bench-rolling-" + length + "-" + System.nanoTime(),
            RateLimitType.ROLLING,
            PERMITS,
            HOUR_NANOS);
    int fill = Math.max(0, length - WARM_UP - MEASURED / 2);
    try {
      for (int i = 0; i < fill + WARM_UP; i++) {
        reserve(store, spec);
      }
      long[] samples = new long[MEASURED];
      for (int i = 0; i < MEASURED; i++) {
        long start = System.nanoTime();
        reserve(store, spec);
        samples[i] = System.nanoTime() - start;
      }
      Arrays.sort(samples);
      System.out.printf(
          "%-10s %10.3f %10.3f %10.3f %10d%n",
          "~" + length,
          Arrays.stream(samples).average().orElse(Double.NaN) / 1e6,
          percentile(samples, 50),
          percentile(samples, 99),
          rows(spec.name()));
    } finally {
      delete(spec.name());
    }
  }

  /** Class loading, the JIT and the pool, on a short log of its own, before any figure is taken. */
  private static void warmUp(JpaStore store) throws SQLException {
    RateSpec spec =
        new RateSpec(
            "bench-rolling-warm-up-" + System.nanoTime(),
            RateLimitType.ROLLING,
            PERMITS,
            HOUR_NANOS);
    try {
      for (int i = 0; i < JVM_WARM_UP; i++) {
        reserve(store, spec);
      }
    } finally {
      delete(spec.name());
    }
  }

  private static void reserve(JpaStore store, RateSpec spec) {
    if (!store.rates().reserve(spec, 0).granted()) {
      throw new IllegalStateException(spec.name() + " rejected: the limit is not high enough");
    }
  }

  private static double percentile(long[] sorted, double percent) {
    int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, index)] / 1e6;
  }

  private static long rows(String name) throws SQLException {
    try (Connection connection = connect();
        PreparedStatement count =
            connection.prepareStatement(
                "SELECT COUNT(*) FROM bulwark_rate_grant g JOIN bulwark_limit l"
                    + " ON g.limit_id = l.id WHERE l.name = ?")) {
      count.setString(1, name);
      try (ResultSet result = count.executeQuery()) {
        result.next();
        return result.getLong(1);
      }
    }
  }

  private static void delete(String name) throws SQLException {
    try (Connection connection = connect();
        PreparedStatement grants =
            connection.prepareStatement(
                "DELETE FROM bulwark_rate_grant WHERE limit_id IN"
                    + " (SELECT id FROM bulwark_limit WHERE name = ?)");
        PreparedStatement limit =
            connection.prepareStatement("DELETE FROM bulwark_limit WHERE name = ?")) {
      grants.setString(1, name);
      grants.executeUpdate();
      limit.setString(1, name);
      limit.executeUpdate();
    }
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection(
        PostgresTarget.schemaUrl(), PostgresTarget.USER, PostgresTarget.PASSWORD);
  }
}
