package dev.bulwark.jpa.container;

import dev.bulwark.jpa.JpaStore;
import dev.bulwark.jpa.setup.Dialect;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.persistence.EntityManagerFactory;
import javax.sql.DataSource;

/**
 * The store on a JTA persistence unit of the application. Kept apart from the provider so that the
 * JTA API is loaded only when a container unit is used. On PostgreSQL the store LISTENs for
 * hand-overs on a connection of the unit's data source, held outside any transaction.
 */
final class JtaStores {

  private JtaStores() {}

  static BulwarkStore open(
      BeanManager beans,
      EntityManagerFactory factory,
      String unit,
      JpaSettings settings,
      GrantListener listener) {
    CallerTransaction caller = new CallerTransaction(TransactionManagers.find(beans));
    JtaUnitOfWork unitOfWork = new JtaUnitOfWork(factory, caller);
    Dialect dialect = UnitDialect.of(factory, unitOfWork, unit);
    DataSource notifications = dialect == Dialect.POSTGRESQL ? UnitDataSource.of(factory) : null;
    // the first operation may open the store inside the caller's transaction: the LISTEN
    // connection, taken now, must not be enlisted in it
    return caller.suspendedDuring(
        () ->
            JpaStore.on(
                unitOfWork,
                dialect,
                notifications,
                settings,
                listener,
                () -> {
                  // the container owns the unit and closes it
                }));
  }
}
