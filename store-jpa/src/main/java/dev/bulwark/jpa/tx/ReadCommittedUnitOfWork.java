package dev.bulwark.jpa.tx;

import jakarta.persistence.EntityManager;
import java.sql.Statement;
import java.util.function.Function;

/**
 * Runs each transaction of another unit of work at READ COMMITTED, whatever the connection's
 * default: the store's steps read what the step before committed once they hold the limit's row,
 * which a snapshot taken earlier (PostgreSQL's REPEATABLE READ and SERIALIZABLE take it when the
 * locking statement starts, before it waits) would not show. Used on every unit the store does not
 * pool itself (an application's persistence unit, a container's data source, JTA), since the
 * application may have set another level there.
 *
 * <p>The level is set by the first statement of each transaction, {@code SET TRANSACTION ISOLATION
 * LEVEL READ COMMITTED}, which PostgreSQL, MariaDB and H2 apply to that transaction only: the
 * application's connections keep their own level.
 */
public final class ReadCommittedUnitOfWork implements UnitOfWork {

  static final String SET_READ_COMMITTED = "SET TRANSACTION ISOLATION LEVEL READ COMMITTED";

  private final UnitOfWork unitOfWork;

  public ReadCommittedUnitOfWork(UnitOfWork unitOfWork) {
    this.unitOfWork = unitOfWork;
  }

  @Override
  public <T> T inNewTransaction(Function<EntityManager, T> work) {
    return unitOfWork.inNewTransaction(
        em -> {
          Connections.run(
              em,
              connection -> {
                try (Statement statement = connection.createStatement()) {
                  statement.execute(SET_READ_COMMITTED);
                }
                return null;
              });
          return work.apply(em);
        });
  }
}
