package dev.bulwark.jpa.container;

import dev.bulwark.jpa.JpaStore;
import dev.bulwark.jpa.setup.DataSourceUnit;
import dev.bulwark.jpa.setup.InvalidJpaSettingException;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.jpa.setup.StoreUnit;
import dev.bulwark.jpa.tx.ResourceLocalUnitOfWork;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import jakarta.enterprise.inject.spi.BeanManager;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * The store on a data source the container manages ({@code bulwark.jpa.datasource}, a JNDI name):
 * its own resource-local unit with the container's JPA provider, each operation with the caller's
 * JTA transaction suspended. On PostgreSQL one connection of the data source LISTENs for hand-overs
 * for as long as the store is open.
 */
final class DataSourceStores {

  private DataSourceStores() {}

  /**
   * Opens the store with the caller's transaction suspended: it opens on its first operation, which
   * may run inside a transaction, and neither its connection nor the unit's schema generation (DDL
   * is transactional on PostgreSQL) may become part of it.
   */
  static BulwarkStore open(
      BeanManager beans, String name, JpaSettings settings, GrantListener listener) {
    CallerTransaction caller = new CallerTransaction(TransactionManagers.find(beans));
    return caller.suspendedDuring(
        () -> {
          DataSource dataSource = lookup(name);
          StoreUnit unit = DataSourceUnit.open(dataSource, name, settings);
          try {
            return JpaStore.on(
                new SuspendingUnitOfWork(new ResourceLocalUnitOfWork(unit.factory()), caller),
                unit.dialect(),
                // on PostgreSQL a connection of the data source LISTENs for hand-overs
                dataSource,
                settings,
                listener,
                unit);
          } catch (RuntimeException e) {
            unit.close();
            throw e;
          }
        });
  }

  private static DataSource lookup(String name) {
    Object found;
    try {
      found = new InitialContext().lookup(name);
    } catch (NamingException e) {
      throw new InvalidJpaSettingException(
          "bulwark.jpa.datasource=" + name + ": nothing bound at that JNDI name (" + e + ")", e);
    }
    if (found instanceof DataSource dataSource) {
      return dataSource;
    }
    throw new InvalidJpaSettingException(
        "bulwark.jpa.datasource="
            + name
            + ": bound to a "
            + found.getClass().getName()
            + ", not a DataSource");
  }
}
