package dev.bulwark.it.cluster.harness;

import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/** Deletes a run's keys from a Redis that outlives the run. */
public final class RedisKeys {

  private RedisKeys() {}

  public static void deleteByPrefix(UnifiedJedis redis, String prefix) {
    String cursor = ScanParams.SCAN_POINTER_START;
    ScanParams match = new ScanParams().match(prefix + "*").count(500);
    do {
      ScanResult<String> page = redis.scan(cursor, match);
      if (!page.getResult().isEmpty()) {
        redis.unlink(page.getResult().toArray(String[]::new));
      }
      cursor = page.getCursor();
    } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
  }
}
