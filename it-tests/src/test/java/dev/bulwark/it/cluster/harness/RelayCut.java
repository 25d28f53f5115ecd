package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.support.TcpRelay;

/**
 * The JPA store's outage on a shared database, which the test must not stop: each run's workers
 * reach the database through a {@link TcpRelay} of their own, and the outage cuts every relay
 * (refused connections, open ones reset, as a crashed server) and restores them. A run is back on
 * the database once a connection opened after the restore got an answer through its relay.
 */
public final class RelayCut implements StoreOutage {

  private final RelayedDatabase database;

  public RelayCut(JpaUnderTest database) {
    this.database = new RelayedDatabase(database);
  }

  @Override
  public StoreUnderTest store() {
    return database.store();
  }

  @Override
  public void cut() {
    database.relays().forEach(TcpRelay::cut);
  }

  @Override
  public void restore() {
    database.relays().forEach(TcpRelay::restore);
  }

  @Override
  public boolean usedAgain(ClusterRun run, long deadline) {
    TcpRelay relay = database.relay(run.id());
    while (System.nanoTime() < deadline) {
      if (relay.answeredSinceRestore() > 0) {
        return true;
      }
      StartBarrier.sleepMillis(20);
    }
    return false;
  }

  @Override
  public void close() {
    database.close();
  }

  @Override
  public String toString() {
    return database.toString();
  }
}
