package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.support.TcpRelay;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A shared database each run's workers reach through a {@link TcpRelay} of their own, for tests
 * that must break the way to it (cut it, make it stand still) without stopping the server, which
 * other runs use. The test itself still talks to the database directly.
 */
final class RelayedDatabase {

  private final JpaUnderTest database;
  private final Map<String, TcpRelay> relays = new ConcurrentHashMap<>();

  RelayedDatabase(JpaUnderTest database) {
    this.database = database;
  }

  /** The database as a store under test, each run opened behind a relay of its own. */
  StoreUnderTest store() {
    return new StoreUnderTest() {
      @Override
      public StoreSpace open(String id, Path runDir) {
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

  /** The relay of the run {@code id}, or null. */
  TcpRelay relay(String id) {
    return relays.get(id);
  }

  Collection<TcpRelay> relays() {
    return relays.values();
  }

  void close() {
    relays.values().forEach(TcpRelay::close);
  }

  @Override
  public String toString() {
    return database.toString();
  }
}
