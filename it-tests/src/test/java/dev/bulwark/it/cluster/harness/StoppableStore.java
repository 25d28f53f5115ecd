package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.support.RedisServerProcess;
import dev.bulwark.it.support.TcpRelay;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store a nemesis can make stand still and continue, its connections open and its data kept: a
 * Redis server of the test's own, stopped with SIGSTOP; or a shared database the test must not
 * stop, reached through a {@link TcpRelay} per run that holds every byte while paused.
 */
public interface StoppableStore extends AutoCloseable {

  /** The store the runs open their spaces in, reached through what {@link #stop()} stops. */
  StoreUnderTest store();

  /** Makes the store stand still; returns at once. */
  void stop();

  /** Makes it answer again, what it was sent meanwhile first. */
  void resume();

  @Override
  void close();

  /** A Redis server of the test's own (no persistence), in {@code dir}. */
  static StoppableStore redis(Path dir) {
    RedisServerProcess server = RedisServerProcess.start(dir);
    return new StoppableStore() {
      @Override
      public StoreUnderTest store() {
        return RedisUnderTest.standalone(server.url());
      }

      @Override
      public void stop() {
        server.pause();
      }

      @Override
      public void resume() {
        server.resume();
      }

      @Override
      public void close() {
        server.close();
      }

      @Override
      public String toString() {
        return "redis";
      }
    };
  }

  /** A shared database, each run's workers behind a relay of their own. */
  static StoppableStore relayed(JpaUnderTest database) {
    Map<String, TcpRelay> relays = new ConcurrentHashMap<>();
    return new StoppableStore() {
      @Override
      public StoreUnderTest store() {
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

      @Override
      public void stop() {
        relays.values().forEach(TcpRelay::pause);
      }

      @Override
      public void resume() {
        relays.values().forEach(TcpRelay::resume);
      }

      @Override
      public void close() {
        relays.values().forEach(TcpRelay::close);
      }

      @Override
      public String toString() {
        return database.toString();
      }
    };
  }
}
