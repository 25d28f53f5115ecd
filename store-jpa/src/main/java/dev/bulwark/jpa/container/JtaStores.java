package dev.bulwark.jpa.container;

import dev.bulwark.jpa.JpaStore;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.persistence.EntityManagerFactory;

/**
 * The store on a JTA persistence unit of the application. Kept apart from the provider so that the
 * JTA API is loaded only when a container unit is used.
 */
final class JtaStores {

  private JtaStores() {}

  static BulwarkStore open(
      BeanManager beans,
      EntityManagerFactory factory,
      String unit,
      JpaSettings settings,
      GrantListener listener) {
    JtaUnitOfWork unitOfWork =
        new JtaUnitOfWork(factory, new CallerTransaction(TransactionManagers.find(beans)));
    return JpaStore.on(
        unitOfWork,
        UnitDialect.of(factory, unitOfWork, unit),
        null,
        settings,
        listener,
        () -> {
          // the container owns the unit and closes it
        });
  }
}
