package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.support.RedisServerProcess;
import java.nio.file.Path;
import redis.clients.jedis.Jedis;

/**
 * The Redis store's outage: a server of the test's own (no persistence) that shuts down and starts
 * again on the same port, empty. A run is back on it once its key prefix shows up in the new
 * server.
 */
public final class RedisRestart implements StoreOutage {

  private final RedisServerProcess server;

  private RedisRestart(RedisServerProcess server) {
    this.server = server;
  }

  public static RedisRestart start(Path dir) {
    return new RedisRestart(RedisServerProcess.start(dir));
  }

  @Override
  public StoreUnderTest store() {
    return RedisUnderTest.standalone(server.url());
  }

  @Override
  public void cut() {
    server.shutdown();
  }

  @Override
  public void restore() {
    server.startAgain();
  }

  @Override
  public boolean usedAgain(ClusterRun run, long deadline) {
    String prefix = run.storeSetting(RedisUnderTest.KEY_PREFIX);
    try (Jedis jedis = server.connect()) {
      while (System.nanoTime() < deadline) {
        if (!jedis.keys(prefix + "*").isEmpty()) {
          return true;
        }
        StartBarrier.sleepMillis(20);
      }
    }
    return false;
  }

  @Override
  public void close() {
    server.close();
  }

  @Override
  public String toString() {
    return "redis";
  }
}
