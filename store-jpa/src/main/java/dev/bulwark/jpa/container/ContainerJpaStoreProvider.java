package dev.bulwark.jpa.container;

import dev.bulwark.jpa.JpaStore;
import dev.bulwark.jpa.setup.InvalidJpaSettingException;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.StoreContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Shutdown;
import jakarta.enterprise.event.Startup;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * {@code bulwark.store=jpa} in a CDI container, where it takes precedence over the Java SE
 * provider. It works with what the settings name:
 *
 * <ul>
 *   <li>{@code bulwark.jpa.datasource}: a data source the container manages, by JNDI name (a JDBC
 *       resource on Payara), with the store's own unit on the container's JPA provider;
 *   <li>{@code bulwark.jpa.url}: the store's own pool, as in Java SE;
 *   <li>{@code bulwark.jpa.persistence-unit}: the application's unit of that name when the
 *       container offers it as a CDI bean (Quarkus), else a unit the store opens itself, as in Java
 *       SE;
 *   <li>neither: the application's default unit, a CDI bean.
 * </ul>
 *
 * <p>On an application's unit every store operation runs in a JTA transaction of its own, the
 * caller's transaction suspended meanwhile ({@link JtaUnitOfWork}); the unit must map the store's
 * entities ({@code dev.bulwark.jpa.entity}) and its tables keep the default names.
 *
 * <p>A store on the container's unit or data source opens on its first operation, since the
 * container may make them usable only after the engine started; once the application has started
 * ({@link Startup}) the store opens if it can, recording the definitions the engine gave it
 * meanwhile; when it stops ({@link Shutdown}) the store closes, before the container closes the
 * data source.
 */
@ApplicationScoped
public class ContainerJpaStoreProvider implements BulwarkStoreProvider {

  /** How the settings and messages name the application's default unit. */
  static final String DEFAULT_UNIT = "<default>";

  @Inject BeanManager beans;

  /** The stores on the container's units opened so far, to be opened once the application runs. */
  private final List<OpenedOnFirstUse> onFirstUse = new CopyOnWriteArrayList<>();

  @Override
  public String id() {
    return "jpa";
  }

  @Override
  public BulwarkStore open(StoreContext context) {
    Function<String, Optional<String>> config = context::config;
    Optional<String> dataSource = setting(config, "datasource");
    if (dataSource.isPresent()) {
      String name = dataSource.get();
      JpaSettings settings = JpaSettings.from(config);
      return onFirstUse(
          new OpenedOnFirstUse(
              () -> DataSourceStores.open(beans, name, settings, context.grantListener()),
              "data source " + name,
              settings.wakeUpCheckInterval()));
    }
    if (setting(config, "url").isPresent()) {
      return JpaStore.open(JpaSettings.from(config), context.grantListener());
    }
    Optional<String> named = setting(config, "persistence-unit");
    EntityManagerFactory unit = PersistenceUnitBeans.find(beans, named.orElse(null));
    if (unit == null) {
      if (named.isPresent()) {
        return openOwnUnit(named.get(), config, context);
      }
      throw new InvalidJpaSettingException(
          "bulwark.store=jpa needs bulwark.jpa.url, bulwark.jpa.persistence-unit, or a default"
              + " persistence unit of the application offered as a CDI bean (there is none)");
    }
    String unitName = named.orElse(DEFAULT_UNIT);
    JpaSettings settings =
        JpaSettings.from(named.isPresent() ? config : withUnit(config, DEFAULT_UNIT));
    if (!settings.tablePrefix().equals(JpaSettings.DEFAULT_TABLE_PREFIX)) {
      throw new InvalidJpaSettingException(
          JpaSettings.key("table-prefix")
              + "="
              + settings.tablePrefix()
              + ": on the application's persistence unit ("
              + unitName
              + ") the tables keep the names the entities map ("
              + JpaSettings.DEFAULT_TABLE_PREFIX
              + "*); rename them in the unit's mapping instead");
    }
    return onFirstUse(
        new OpenedOnFirstUse(
            () -> JtaStores.open(beans, unit, unitName, settings, context.grantListener()),
            "persistence unit " + unitName,
            settings.wakeUpCheckInterval()));
  }

  /**
   * When the application has started (after Quarkus started Hibernate ORM), opens the stores made
   * so far if they can be used: the definitions the engine recorded at its start reach the table
   * then, not on the first call of a limit.
   */
  void openOnStart(@Observes Startup started) {
    onFirstUse.forEach(OpenedOnFirstUse::openNow);
  }

  /**
   * When the application stops, closes the stores: the container closes its data sources before the
   * engine closes the store, and the connection that LISTENs for hand-overs must go back first.
   */
  void closeOnStop(@Observes Shutdown stopping) {
    onFirstUse.forEach(OpenedOnFirstUse::close);
  }

  private OpenedOnFirstUse onFirstUse(OpenedOnFirstUse store) {
    onFirstUse.add(store);
    return store;
  }

  /**
   * A named unit the container does not offer: the store opens it itself, as in Java SE, or the
   * start fails naming the key and the units the container has.
   */
  private BulwarkStore openOwnUnit(
      String name, Function<String, Optional<String>> config, StoreContext context) {
    try {
      return JpaStore.open(JpaSettings.from(config), context.grantListener());
    } catch (RuntimeException e) {
      throw new InvalidJpaSettingException(
          JpaSettings.key("persistence-unit")
              + "="
              + name
              + ": the container offers no persistence unit of that name (it has "
              + PersistenceUnitBeans.names(beans, DEFAULT_UNIT)
              + ") and the store cannot open one itself ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  /**
   * The settings as the store reads them for the application's default unit, which has no name: the
   * settings expect a URL, a persistence unit or a data source.
   */
  private static Function<String, Optional<String>> withUnit(
      Function<String, Optional<String>> config, String unit) {
    return key ->
        key.equals(JpaSettings.key("persistence-unit")) ? Optional.of(unit) : config.apply(key);
  }

  private static Optional<String> setting(Function<String, Optional<String>> config, String name) {
    return config.apply(JpaSettings.key(name)).map(String::trim).filter(v -> !v.isEmpty());
  }

  @Override
  public Set<String> keys() {
    return JpaSettings.KEYS;
  }
}
