package dev.bulwark.jpa.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.jpa.setup.DataSourceUnit;
import dev.bulwark.jpa.setup.Dialect;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.jpa.setup.StoreUnit;
import dev.bulwark.jpa.tx.ResourceLocalUnitOfWork;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * The database of a unit that reports no JDBC URL (as Quarkus' Hibernate ORM does) is told from the
 * connection's metadata: the database is sent no statement to find out, so none fails and none is
 * logged as an SQL error on a start on H2.
 */
class UnitDialectTest {

  @Test
  void anH2UnitWithoutUrlIsToldWithoutAStatement() throws Exception {
    String prefix = "t" + HexFormat.of().formatHex(new SecureRandom().generateSeed(4)) + "_";
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:bulwark-tests;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
    h2.setUser("sa");
    AtomicBoolean recording = new AtomicBoolean();
    List<String> statements = new CopyOnWriteArrayList<>();
    Map<String, String> config =
        Map.of(
            "bulwark.jpa.datasource", "h2",
            "bulwark.jpa.table-prefix", prefix,
            "bulwark.jpa.schema-generation", "create",
            "bulwark.jpa.provider", "org.hibernate.jpa.HibernatePersistenceProvider");
    JpaSettings settings = JpaSettings.from(key -> Optional.ofNullable(config.get(key)));
    try (StoreUnit unit =
        DataSourceUnit.open(recordingStatements(h2, recording, statements), "h2", settings)) {
      assertThat(unit.factory().getProperties()).doesNotContainKey("jakarta.persistence.jdbc.url");
      recording.set(true);

      Dialect dialect =
          UnitDialect.of(unit.factory(), new ResourceLocalUnitOfWork(unit.factory()), "h2");

      assertThat(dialect).isEqualTo(Dialect.H2);
      assertThat(statements).isEmpty();
    } finally {
      try (Connection connection = h2.getConnection();
          Statement statement = connection.createStatement()) {
        for (String table : List.of("limit", "claim", "rate_grant")) {
          statement.execute("DROP TABLE IF EXISTS " + prefix + table);
        }
      }
    }
  }

  /** {@code dataSource} whose connections note the text of every statement while recording. */
  private static DataSource recordingStatements(
      DataSource dataSource, AtomicBoolean recording, List<String> statements) {
    return (DataSource)
        Proxy.newProxyInstance(
            UnitDialectTest.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = invoke(dataSource, method, args);
              if (result instanceof Connection connection) {
                return recordingConnection(connection, recording, statements);
              }
              return result;
            });
  }

  private static Connection recordingConnection(
      Connection connection, AtomicBoolean recording, List<String> statements) {
    return (Connection)
        Proxy.newProxyInstance(
            UnitDialectTest.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              boolean statement =
                  method.getName().startsWith("prepare")
                      || method.getName().equals("createStatement");
              if (statement && recording.get()) {
                statements.add(args == null ? method.getName() : String.valueOf(args[0]));
              }
              return invoke(connection, method, args);
            });
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
