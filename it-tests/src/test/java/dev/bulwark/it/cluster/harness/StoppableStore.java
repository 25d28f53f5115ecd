package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.support.RedisServerProcess;
import dev.bulwark.it.support.TcpRelay;
import java.nio.file.Path;

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
  static StoppableStore relayed(JpaUnderTest shared) {
    RelayedDatabase database = new RelayedDatabase(shared);
    return new StoppableStore() {
      @Override
      public StoreUnderTest store() {
        return database.store();
      }

      @Override
      public void stop() {
        database.relays().forEach(TcpRelay::pause);
      }

      @Override
      public void resume() {
        database.relays().forEach(TcpRelay::resume);
      }

      @Override
      public void close() {
        database.close();
      }

      @Override
      public String toString() {
        return database.toString();
      }
    };
  }
}
