package dev.bulwark.jpa.container;

import dev.bulwark.jpa.setup.Dialect;
import dev.bulwark.jpa.setup.InvalidJpaSettingException;
import dev.bulwark.jpa.tx.Connections;
import dev.bulwark.jpa.tx.UnitOfWork;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;

/**
 * The database of a persistence unit the store did not open itself. The JDBC URL when the unit
 * reports one; else (Quarkus gives Hibernate a datasource, no URL) the product name in the JDBC
 * metadata of the connection a transaction of the store's own uses, which asks the database no
 * statement it might refuse and log.
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
    String product =
        unitOfWork.inNewTransaction(
            em -> Connections.run(em, c -> c.getMetaData().getDatabaseProductName()));
    Dialect dialect = Dialect.ofProduct(product);
    if (dialect == null) {
      throw new InvalidJpaSettingException(
          "bulwark.jpa.persistence-unit="
              + unit
              + ": the unit's database ("
              + product
              + ") is not supported; PostgreSQL, MariaDB and H2 are");
    }
    return dialect;
  }
}
