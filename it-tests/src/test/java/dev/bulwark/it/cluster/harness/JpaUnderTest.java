package dev.bulwark.it.cluster.harness;

import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.StoreContext;
import dev.bulwark.tck.TestServices;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.ToIntBiFunction;

/**
 * The JPA store under test on one database. A run's space is a schema of its own on PostgreSQL, a
 * database of its own on MariaDB (both dropped when the run ends), or an H2 file in the run's
 * folder opened with {@code AUTO_SERVER=TRUE}, which the test JVM serves to the workers over TCP
 * while the run lasts. The test creates the run's tables by opening the store once itself ({@code
 * schema-generation=create}), so that the workers start on a finished schema and none of them races
 * another creating it.
 */
public final class JpaUnderTest implements StoreUnderTest {

  /** The databases the JPA store runs on here. */
  public enum Database {
    POSTGRESQL,
    MARIADB,
    H2
  }

  /**
   * MariaDB Connector/J 3+ asks for TLS unless told otherwise; the test servers (a Debian package,
   * a container) serve plain connections.
   */
  private static final String MARIADB_PLAIN = "sslMode=disable";

  /**
   * How often a JVM looks for hand-overs other JVMs made to its waiters where no notification tells
   * it (MariaDB, H2): short, so that waiters in other JVMs are served within a fraction of a call's
   * hold time.
   */
  private static final Duration CHECK_INTERVAL = Duration.ofMillis(20);

  /** The persistence unit of the test class path (META-INF/persistence.xml) the workers name. */
  static final String UNIT = "bulwark-it-unit";

  private final Database database;
  private final Map<String, String> settings;
  private final Duration wakeUpSpread;
  private final boolean repeatableReadUnit;

  private JpaUnderTest(
      Database database,
      Map<String, String> settings,
      Duration wakeUpSpread,
      boolean repeatableReadUnit) {
    this.database = database;
    this.settings = settings;
    this.wakeUpSpread = wakeUpSpread;
    this.repeatableReadUnit = repeatableReadUnit;
  }

  private JpaUnderTest(Database database, Map<String, String> settings, Duration wakeUpSpread) {
    this(database, settings, wakeUpSpread, false);
  }

  /**
   * The shared PostgreSQL of {@link TestServices#postgresql()}: a hand-over reaches another JVM by
   * NOTIFY, whose delivery (to the JVM's LISTEN connection, then its look at the table) varies by
   * about 10 ms here.
   */
  public static JpaUnderTest postgresql() {
    return new JpaUnderTest(Database.POSTGRESQL, Map.of(), Duration.ofMillis(10));
  }

  /**
   * The shared MariaDB of {@link TestServices#mariadb()}. It has no notifications: a JVM learns of
   * a hand-over another JVM made by looking every {@link #CHECK_INTERVAL}.
   */
  public static JpaUnderTest mariadb() {
    return new JpaUnderTest(Database.MARIADB, checkEvery(), CHECK_INTERVAL.plusMillis(10));
  }

  /**
   * The shared PostgreSQL through an application's persistence unit ({@code
   * bulwark.jpa.persistence-unit}, Hibernate's own connections) on a database of the run's own
   * whose default isolation is REPEATABLE READ: the store's transactions must not inherit it. The
   * unit has no LISTEN connection, so a JVM looks for hand-overs every {@link #CHECK_INTERVAL}.
   */
  public static JpaUnderTest postgresqlUnitAtRepeatableRead() {
    return new JpaUnderTest(Database.POSTGRESQL, checkEvery(), CHECK_INTERVAL.plusMillis(10), true);
  }

  /** An H2 file in the run's folder, shared by the JVMs of one host through AUTO_SERVER. */
  public static JpaUnderTest h2AutoServer() {
    return new JpaUnderTest(Database.H2, checkEvery(), CHECK_INTERVAL.plusMillis(10));
  }

  private static Map<String, String> checkEvery() {
    return Map.of("bulwark.jpa.wake-up-check-interval", CHECK_INTERVAL.toMillis() + "ms");
  }

  @Override
  public Duration wakeUpSpread() {
    return wakeUpSpread;
  }

  /**
   * Not on H2: a transaction waiting for a locked row (the limit's, which every acquire locks) gets
   * it in no particular order when it is freed, so requests that reach the store together queue in
   * any order; PostgreSQL and InnoDB hand a row lock to its waiters in the order they came.
   */
  @Override
  public boolean queuesInArrivalOrder() {
    return database != Database.H2;
  }

  @Override
  public StoreSpace open(String id, Path runDir) {
    return open(id, runDir, (host, port) -> port);
  }

  /**
   * Opens the run's space with the workers' connections sent to the loopback port {@code
   * route.applyAsInt(host, port)} answers for the server's (a relay's), while the test itself still
   * talks to the server directly. A route that answers the server's own port leaves it alone.
   */
  public StoreSpace open(String id, Path runDir, ToIntBiFunction<String, Integer> route) {
    String name = ("bulwark_it_" + id).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    if (name.length() > 60) {
      // identifiers end at 63 (PostgreSQL) or 64 (MariaDB) characters: keep the unique tail
      name = name.substring(0, 44) + name.substring(name.length() - 16);
    }
    if (repeatableReadUnit) {
      return repeatableReadUnitSpace(TestServices.postgresql(), name, route);
    }
    return switch (database) {
      case POSTGRESQL -> serverSpace(TestServices.postgresql(), name, route);
      case MARIADB -> serverSpace(TestServices.mariadb(), name, route);
      case H2 -> h2Space(runDir);
    };
  }

  private StoreSpace serverSpace(
      TestServices.Endpoint server, String name, ToIntBiFunction<String, Integer> route) {
    boolean postgres = database == Database.POSTGRESQL;
    execute(server, postgres ? "CREATE SCHEMA " + name : "CREATE DATABASE " + name);
    String drop = postgres ? "DROP SCHEMA " + name + " CASCADE" : "DROP DATABASE " + name;
    try {
      URI uri = URI.create(server.url().substring("jdbc:".length()));
      int port = route.applyAsInt(uri.getHost(), uri.getPort());
      String authority = (port == uri.getPort() ? uri.getHost() : "127.0.0.1") + ":" + port;
      String url =
          postgres
              ? "jdbc:postgresql://" + authority + uri.getPath() + "?currentSchema=" + name
              : "jdbc:mariadb://" + authority + "/" + name + "?" + MARIADB_PLAIN;
      Map<String, String> config = config(url, server.user(), server.password());
      createTables(config);
      return new Space(config, () -> execute(server, drop));
    } catch (RuntimeException | Error e) {
      execute(server, drop);
      throw e;
    }
  }

  /**
   * A PostgreSQL database of the run's own, REPEATABLE READ by default, which the workers reach
   * through the persistence unit {@value #UNIT}: its URL and credentials go to Hibernate as the
   * workers' {@code jakarta.persistence.jdbc.*} system properties. The test creates the tables
   * through the store's own pool on that database: the unit maps the same names.
   */
  private StoreSpace repeatableReadUnitSpace(
      TestServices.Endpoint server, String name, ToIntBiFunction<String, Integer> route) {
    execute(server, "CREATE DATABASE " + name);
    String drop = "DROP DATABASE " + name + " WITH (FORCE)";
    try {
      execute(
          server,
          "ALTER DATABASE " + name + " SET default_transaction_isolation = 'repeatable read'");
      URI uri = URI.create(server.url().substring("jdbc:".length()));
      String direct = "jdbc:postgresql://" + uri.getHost() + ":" + uri.getPort() + "/" + name;
      checkDefaultIsolation(direct, server, "repeatable read");
      int port = route.applyAsInt(uri.getHost(), uri.getPort());
      String authority = (port == uri.getPort() ? uri.getHost() : "127.0.0.1") + ":" + port;
      String url = "jdbc:postgresql://" + authority + "/" + name;
      createTables(config(direct, server.user(), server.password()));
      Map<String, String> config = new LinkedHashMap<>();
      config.put("bulwark.store", "jpa");
      config.put("bulwark.jpa.persistence-unit", UNIT);
      config.put("bulwark.jpa.schema-generation", "none");
      config.put("bulwark.jpa.reconnect-interval", "1s");
      config.put("jakarta.persistence.jdbc.url", url);
      config.put("jakarta.persistence.jdbc.user", server.user());
      config.put("jakarta.persistence.jdbc.password", server.password());
      config.putAll(settings);
      return new Space(config, () -> execute(server, drop));
    } catch (RuntimeException | Error e) {
      execute(server, drop);
      throw e;
    }
  }

  /** Fails unless a new connection to {@code url} starts its transactions at {@code level}. */
  private static void checkDefaultIsolation(
      String url, TestServices.Endpoint server, String level) {
    try (Connection connection =
            DriverManager.getConnection(url, server.user(), server.password());
        Statement statement = connection.createStatement();
        java.sql.ResultSet shown = statement.executeQuery("SHOW default_transaction_isolation")) {
      shown.next();
      if (!level.equals(shown.getString(1))) {
        throw new IllegalStateException(
            url + " starts transactions at " + shown.getString(1) + ", not " + level);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the default isolation of " + url, e);
    }
  }

  private StoreSpace h2Space(Path runDir) {
    String url =
        "jdbc:h2:file:"
            + runDir.toAbsolutePath().resolve("h2").resolve("store")
            + ";AUTO_SERVER=TRUE";
    Map<String, String> config = config(url, "sa", "");
    try {
      // the first connection to the file serves it to the others: the test's, for the whole run
      Connection host = DriverManager.getConnection(url, "sa", "");
      createTables(config);
      return new Space(config, () -> closeQuietly(host));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open " + url, e);
    }
  }

  private Map<String, String> config(String url, String user, String password) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("bulwark.store", "jpa");
    config.put("bulwark.jpa.url", url);
    config.put("bulwark.jpa.user", user);
    config.put("bulwark.jpa.password", password);
    config.put("bulwark.jpa.schema-generation", "none");
    config.put("bulwark.jpa.connect-timeout", "2s");
    config.put("bulwark.jpa.reconnect-interval", "1s");
    config.putAll(settings);
    return config;
  }

  /** Opens the store once with schema generation on, then closes it: the tables are there. */
  private static void createTables(Map<String, String> workerConfig) {
    Map<String, String> config = new LinkedHashMap<>(workerConfig);
    config.put("bulwark.jpa.schema-generation", "create");
    BulwarkStoreProvider jpa =
        ServiceLoader.load(BulwarkStoreProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(p -> p.id().equals("jpa"))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("bulwark-jpa is not on the classpath"));
    GrantListener ignored = (request, token) -> {};
    StoreContext context =
        new StoreContext() {
          @Override
          public Optional<String> config(String key) {
            return Optional.ofNullable(config.get(key));
          }

          @Override
          public GrantListener grantListener() {
            return ignored;
          }
        };
    // opening it created the tables
    BulwarkStore store = jpa.open(context);
    store.close();
  }

  private static void execute(TestServices.Endpoint server, String sql) {
    String url = server.url();
    if (url.startsWith("jdbc:mariadb:") && !url.contains("sslMode")) {
      url += (url.contains("?") ? "&" : "?") + MARIADB_PLAIN;
    }
    try (Connection connection =
            DriverManager.getConnection(url, server.user(), server.password());
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + " failed on " + server.url(), e);
    }
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      // the run is over either way
    }
  }

  @Override
  public String toString() {
    return "jpa-"
        + database.name().toLowerCase(Locale.ROOT)
        + (repeatableReadUnit ? "-rr-unit" : "");
  }

  /** A run's space: its config, and what deletes it. */
  private record Space(Map<String, String> config, Runnable cleanUp) implements StoreSpace {
    @Override
    public void close() {
      cleanUp.run();
    }
  }
}
