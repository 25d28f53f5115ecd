package dev.bulwark.jpa.tx;

import jakarta.persistence.EntityManager;
import java.util.function.Function;

/**
 * Runs one store operation in a transaction of its own, never in the caller's: the seam between the
 * store's operations and how transactions are made where it runs.
 *
 * <p>The implementation here, {@link ResourceLocalUnitOfWork}, begins and commits a resource-local
 * transaction on a fresh {@link EntityManager}. A container variant (JTA) plugs in by implementing
 * this interface: suspend the caller's transaction, begin a new one, run {@code work} with an
 * entity manager joined to it, commit, resume the caller's. Whatever the variant, it must:
 *
 * <ul>
 *   <li>commit before it returns, so that what {@code work} did is visible to every other JVM;
 *   <li>roll back and rethrow when {@code work} or the commit throws, leaving the exception as the
 *       provider or driver threw it (the store classifies it: retry, outage, or fault);
 *   <li>give {@code work} an entity manager that is used by this one call only.
 * </ul>
 */
@FunctionalInterface
public interface UnitOfWork {

  <T> T inNewTransaction(Function<EntityManager, T> work);
}
