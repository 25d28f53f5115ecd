package dev.bulwark.jpa.container;

import dev.bulwark.jpa.tx.UnitOfWork;
import jakarta.persistence.EntityManager;
import java.util.function.Function;

/**
 * Another unit of work run with the caller's JTA transaction suspended: on a container's data
 * source a connection taken inside a JTA transaction would be enlisted in it, so the store's
 * resource-local transaction would become part of the caller's.
 */
final class SuspendingUnitOfWork implements UnitOfWork {

  private final UnitOfWork inner;
  private final CallerTransaction caller;

  SuspendingUnitOfWork(UnitOfWork inner, CallerTransaction caller) {
    this.inner = inner;
    this.caller = caller;
  }

  @Override
  public <T> T inNewTransaction(Function<EntityManager, T> work) {
    return caller.suspendedDuring(() -> inner.inNewTransaction(work));
  }
}
