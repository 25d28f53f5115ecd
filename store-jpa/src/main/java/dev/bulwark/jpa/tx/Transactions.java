package dev.bulwark.jpa.tx;

import dev.bulwark.core.outage.OutageGate;
import dev.bulwark.spi.StoreException;
import jakarta.persistence.EntityManager;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * How the store runs each operation: in a transaction of its own ({@link UnitOfWork}), again when
 * the database reports a conflict (deadlock, serialization failure, lock timeout) up to a bound,
 * and behind the {@link OutageGate}. Every failure leaves as a {@link StoreException}, so the
 * engine applies its failure policy.
 */
public final class Transactions {

  private final UnitOfWork unitOfWork;
  private final OutageGate gate;
  private final int maxAttempts;
  private final AtomicLong retries = new AtomicLong();
  private final String where;

  public Transactions(UnitOfWork unitOfWork, OutageGate gate, int maxAttempts, String where) {
    this.unitOfWork = unitOfWork;
    this.gate = gate;
    this.maxAttempts = maxAttempts;
    this.where = where;
  }

  public <T> T run(String operation, Function<EntityManager, T> work) {
    return gate.call(() -> attempt(operation, work));
  }

  private <T> T attempt(String operation, Function<EntityManager, T> work) {
    for (int attempt = 1; ; attempt++) {
      try {
        return unitOfWork.inNewTransaction(work);
      } catch (RuntimeException e) {
        Failure failure = Failure.of(e);
        if (failure == Failure.UNREACHABLE) {
          throw e;
        }
        if (failure == Failure.CONFLICT && attempt < maxAttempts) {
          retries.incrementAndGet();
          continue;
        }
        throw new StoreException(
            where
                + ": "
                + operation
                + " failed"
                + (failure == Failure.CONFLICT ? " after " + attempt + " attempts" : "")
                + (failure == Failure.POOL_EXHAUSTED
                    ? " (every connection of the pool was in use: raise bulwark.jpa.pool-size)"
                    : "")
                + ": "
                + e.getMessage(),
            e);
      }
    }
  }

  /** Transactions run again after a conflict since the store opened, for tests and metrics. */
  public long retries() {
    return retries.get();
  }
}
