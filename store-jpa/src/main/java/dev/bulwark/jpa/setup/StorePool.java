package dev.bulwark.jpa.setup;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** The store's own connection pool on {@code bulwark.jpa.url}, for the store's unit only. */
final class StorePool {

  /**
   * How long a statement on PostgreSQL or MariaDB may go without a byte from the server before its
   * connection counts as lost: far beyond any step of the store (a step holds a row lock for
   * milliseconds).
   */
  static final int SOCKET_TIMEOUT_SECONDS = 30;

  private StorePool() {}

  /** Opens the pool, or fails with a message naming the setting at fault. */
  static HikariDataSource open(JpaSettings settings) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("bulwark-jpa");
    config.setJdbcUrl(H2WriteDelay.durable(settings.url()));
    if (settings.user() != null) {
      config.setUsername(settings.user());
    }
    if (settings.password() != null) {
      config.setPassword(settings.password());
    }
    // on PostgreSQL the store holds one connection for LISTEN for as long as it is open: one more,
    // so that the operations keep every connection pool-size names (and pool-size=1 still works)
    boolean listens = settings.url().startsWith("jdbc:postgresql:");
    config.setMaximumPoolSize(settings.poolSize() + (listens ? 1 : 0));
    config.setMinimumIdle(1);
    config.setConnectionTimeout(Math.max(250, settings.connectTimeout().toMillis()));
    config.setValidationTimeout(Math.max(250, settings.connectTimeout().toMillis() / 2));
    config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    limitWaitsForTheServer(config, settings);
    try {
      return new HikariDataSource(config);
    } catch (RuntimeException e) {
      if (H2FileHandOver.isPassing(e, false)) {
        throw H2FileHandOver.unavailable(settings, e);
      }
      throw ConnectFailures.diagnosed(settings, e);
    }
  }

  /**
   * Both drivers wait for a statement's answer without a limit, PostgreSQL's for the handshake too:
   * traffic a firewall swallowed would hold the pool's one thread that opens connections for good
   * (the pool would open none again), or a statement's connection and its caller.
   */
  private static void limitWaitsForTheServer(HikariConfig config, JpaSettings settings) {
    long connectMillis = Math.max(1_000, settings.connectTimeout().toMillis());
    if (settings.url().startsWith("jdbc:postgresql:")) {
      config.addDataSourceProperty("loginTimeout", String.valueOf(connectMillis / 1_000));
      config.addDataSourceProperty("socketTimeout", String.valueOf(SOCKET_TIMEOUT_SECONDS));
    } else if (settings.url().startsWith("jdbc:mariadb:")) {
      config.addDataSourceProperty("connectTimeout", String.valueOf(connectMillis));
      config.addDataSourceProperty("socketTimeout", String.valueOf(SOCKET_TIMEOUT_SECONDS * 1_000));
    }
  }
}
