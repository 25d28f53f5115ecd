package dev.bulwark.jpa.setup;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** The store's own connection pool on {@code bulwark.jpa.url}, for the store's unit only. */
final class StorePool {

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
    try {
      return new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw ConnectFailures.diagnosed(settings, e);
    }
  }
}
