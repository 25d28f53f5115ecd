package dev.bulwark.fttck;

import java.net.URI;
import java.util.List;
import java.util.logging.Logger;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Deletes what the bridge-redis run left in Redis once its last deployment stopped: every key under
 * the run's prefix ({@code bulwark-tck:<run id>:}), so repeated builds on one server leave nothing
 * behind. A run that dies before leaves keys under a prefix no later run uses.
 */
final class RunKeys {

  private static final Logger LOG = Logger.getLogger(RunKeys.class.getName());

  private RunKeys() {}

  static void deleteAll(String redisUrl) {
    String pattern = "bulwark-tck:" + BridgeConfig.RUN_ID + ":*";
    long deleted = 0;
    try (Jedis jedis = new Jedis(URI.create(redisUrl))) {
      ScanParams params = new ScanParams().match(pattern).count(1000);
      String cursor = ScanParams.SCAN_POINTER_START;
      do {
        ScanResult<String> page = jedis.scan(cursor, params);
        List<String> keys = page.getResult();
        if (!keys.isEmpty()) {
          deleted += jedis.del(keys.toArray(String[]::new));
        }
        cursor = page.getCursor();
      } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
    }
    long count = deleted;
    LOG.info(() -> "bridge-redis: deleted the run's " + count + " keys (" + pattern + ")");
  }
}
