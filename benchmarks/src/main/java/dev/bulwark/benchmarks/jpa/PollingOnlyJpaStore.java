package dev.bulwark.benchmarks.jpa;

import dev.bulwark.jpa.JpaStore;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.jpa.setup.StoreUnit;
import dev.bulwark.jpa.tx.ResourceLocalUnitOfWork;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.StoreContext;

/**
 * {@code bulwark.store=jpa} opened as the JPA store opens itself, but without the LISTEN connection
 * on PostgreSQL: other JVMs' hand-overs are then found only by the check every {@code
 * bulwark.jpa.wake-up-check-interval}, as on a database without notifications. The store has no
 * setting for this; the engine takes this provider before ServiceLoader's.
 */
final class PollingOnlyJpaStore implements BulwarkStoreProvider {

  @Override
  public String id() {
    return "jpa";
  }

  @Override
  public BulwarkStore open(StoreContext context) {
    JpaSettings settings = JpaSettings.from(context::config);
    StoreUnit unit = StoreUnit.open(settings);
    return JpaStore.on(
        new ResourceLocalUnitOfWork(unit.factory()),
        unit.dialect(),
        null,
        settings,
        context.grantListener(),
        unit);
  }
}
