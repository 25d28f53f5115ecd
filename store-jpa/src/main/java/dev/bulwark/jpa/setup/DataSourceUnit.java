package dev.bulwark.jpa.setup;

import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.spi.PersistenceProvider;
import jakarta.persistence.spi.PersistenceProviderResolverHolder;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The store's own resource-local unit on a data source the container manages (a JDBC resource found
 * by its JNDI name, {@code bulwark.jpa.datasource}), with the container's JPA provider (EclipseLink
 * on Payara). The container owns the connections; the store owns only the unit.
 */
public final class DataSourceUnit {

  private static final String GENERATION = "jakarta.persistence.schema-generation.database.action";

  private DataSourceUnit() {}

  /** Opens the unit on {@code dataSource}, bound at {@code name}. */
  public static StoreUnit open(DataSource dataSource, String name, JpaSettings settings) {
    Dialect dialect;
    try (Connection connection = dataSource.getConnection()) {
      String product = connection.getMetaData().getDatabaseProductName();
      dialect = Dialect.ofProduct(product);
      if (dialect == null) {
        throw new InvalidJpaSettingException(
            "bulwark.jpa.datasource="
                + name
                + ": "
                + product
                + " is not supported; PostgreSQL, MariaDB and H2 are");
      }
    } catch (SQLException e) {
      throw new InvalidJpaSettingException(
          "bulwark.jpa.datasource=" + name + ": no connection (" + e.getMessage() + ")", e);
    }
    PersistenceProvider provider = provider(settings, name);
    TableNames names = new TableNames(settings.tablePrefix());
    Map<String, Object> properties =
        new HashMap<>(ProviderChoice.namingProperties(provider.getClass().getName(), names));
    if (settings.createSchema()) {
      properties.put(GENERATION, "create");
    }
    EntityManagerFactory factory =
        provider.createContainerEntityManagerFactory(
            new StorePersistenceUnit(provider.getClass().getName(), dataSource), properties);
    return new StoreUnit(factory, dialect, names, null);
  }

  private static PersistenceProvider provider(JpaSettings settings, String name) {
    List<PersistenceProvider> providers =
        PersistenceProviderResolverHolder.getPersistenceProviderResolver()
            .getPersistenceProviders();
    return providers.stream()
        .filter(
            p -> settings.provider() == null || p.getClass().getName().equals(settings.provider()))
        .findFirst()
        .orElseThrow(
            () ->
                new InvalidJpaSettingException(
                    "bulwark.jpa.datasource="
                        + name
                        + ": no JPA provider"
                        + (settings.provider() == null ? "" : " " + settings.provider())
                        + " in this container; found "
                        + providers.stream().map(p -> p.getClass().getName()).toList()));
  }
}
