package dev.bulwark.quarkus.config;

import java.util.Optional;

/** The JPA store's keys, {@code bulwark.jpa.*}. */
public interface JpaConfig {

  /** JDBC URL of the store's own pool. */
  Optional<String> url();

  /** The pool's user. */
  Optional<String> user();

  /** The pool's password. */
  Optional<String> password();

  /** A persistence unit of the application. */
  Optional<String> persistenceUnit();

  /** A container data source, by JNDI name. */
  Optional<String> datasource();

  /** The {@code PersistenceProvider} class. */
  Optional<String> provider();

  /** What every table name starts with. */
  Optional<String> tablePrefix();

  /** {@code create} or {@code none}. */
  Optional<String> schemaGeneration();

  /** Connections of the store's pool. */
  Optional<String> poolSize();

  /** How long a call waits for a connection. */
  Optional<String> connectTimeout();

  /** How often a JVM looks for hand-overs to its waiters. */
  Optional<String> wakeUpCheckInterval();

  /** How often expired rows are deleted. */
  Optional<String> cleanupInterval();

  /** While the database is unreachable, how often it is tried. */
  Optional<String> reconnectInterval();

  /** How often an operation runs at most on a deadlock or serialization failure. */
  Optional<String> maxAttempts();
}
