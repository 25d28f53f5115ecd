package dev.bulwark.jpa.container;

import dev.bulwark.jpa.setup.Dialect;
import dev.bulwark.jpa.setup.InvalidJpaSettingException;
import dev.bulwark.jpa.tx.UnitOfWork;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import java.util.Locale;

/**
 * The database of a persistence unit the store did not open itself. The JDBC URL when the unit
 * reports one; else the database is asked, in a transaction of the store's own per question, since
 * JPA gives no portable access to the connection's metadata (Quarkus gives Hibernate a datasource,
 * no URL): {@code VERSION()} names PostgreSQL or MariaDB, {@code H2VERSION()} answers on H2 only
 * (asked second, so that the production databases log no failed statement).
 */
final class UnitDialect {

  private static final List<String> URL_KEYS =
      List.of("jakarta.persistence.jdbc.url", "javax.persistence.jdbc.url");

  private UnitDialect() {}

  static Dialect of(EntityManagerFactory factory, UnitOfWork unitOfWork, String unit) {
    for (String key : URL_KEYS) {
      Object url = factory.getProperties().get(key);
      if (url != null && Dialect.ofUrl(url.toString()) != null) {
        return Dialect.ofUrl(url.toString());
      }
    }
    String version = answer(unitOfWork, "SELECT VERSION()");
    String product = version == null ? "" : version.toLowerCase(Locale.ROOT);
    if (product.contains("postgresql")) {
      return Dialect.POSTGRESQL;
    }
    if (product.contains("mariadb") || product.contains("mysql")) {
      return Dialect.MARIADB;
    }
    if (answer(unitOfWork, "SELECT H2VERSION()") != null) {
      return Dialect.H2;
    }
    throw new InvalidJpaSettingException(
        "bulwark.jpa.persistence-unit="
            + unit
            + ": the unit's database ("
            + (version == null ? "it answers neither H2VERSION() nor VERSION()" : version)
            + ") is not supported; PostgreSQL, MariaDB and H2 are");
  }

  /** The single answer to {@code sql}, or null when the database refuses it. */
  private static String answer(UnitOfWork unitOfWork, String sql) {
    try {
      return unitOfWork.inNewTransaction(
          em -> String.valueOf(em.createNativeQuery(sql).getSingleResult()));
    } catch (RuntimeException e) {
      return null;
    }
  }
}
