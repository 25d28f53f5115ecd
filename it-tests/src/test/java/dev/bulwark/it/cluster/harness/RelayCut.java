package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.support.TcpRelay;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JPA store's outage on a shared database, which the test must not stop: each run's workers
 * reach the database through a {@link TcpRelay} of their own, and the outage cuts every relay
 * (refused connections, open ones reset, as a crashed server) and restores them. A run is back on
 * the database once a connection opened after the restore got an answer through its relay.
 */
public final class RelayCut implements StoreOutage {

  private final JpaUnderTest database;
  private final Map<String, TcpRelay> relays = new ConcurrentHashMap<>();

  public RelayCut(JpaUnderTest database) {
    this.database = database;
  }

  @Override
  public StoreUnderTest store() {
    return new StoreUnderTest() {
      @Override
      public StoreSpace open(String id, java.nio.file.Path runDir) {
        return database.open(
            id,
            runDir,
            (host, port) -> {
              TcpRelay relay = TcpRelay.start(host, port);
              relays.put(id, relay);
              return relay.port();
            });
      }

      @Override
      public String toString() {
        return database + "-relayed";
      }
    };
  }

  @Override
  public void cut() {
    relays.values().forEach(TcpRelay::cut);
  }

  @Override
  public void restore() {
    relays.values().forEach(TcpRelay::restore);
  }

  @Override
  public boolean usedAgain(ClusterRun run, long deadline) {
    TcpRelay relay = relays.get(run.id());
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
    relays.values().forEach(TcpRelay::close);
  }

  @Override
  public String toString() {
    return database.toString();
  }
}
