package dev.bulwark.benchmarks.redis;

import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Deletes every key that matches a pattern, by {@code SCAN} and {@code UNLINK} in batches: the
 * server is shared, so a benchmark removes exactly what it created and never flushes a database.
 */
final class KeySweep {

  private static final int BATCH = 1_000;

  /** Deletes the keys matching {@code pattern} (a {@code SCAN MATCH} glob); returns how many. */
  static long delete(Jedis connection, String pattern) {
    ScanParams params = new ScanParams().match(pattern).count(BATCH);
    String cursor = ScanParams.SCAN_POINTER_START;
    long deleted = 0;
    do {
      ScanResult<String> page = connection.scan(cursor, params);
      List<String> keys = page.getResult();
      if (!keys.isEmpty()) {
        deleted += connection.unlink(keys.toArray(String[]::new));
      }
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return deleted;
  }

  /** How many keys match {@code pattern}, without deleting them. */
  static long count(Jedis connection, String pattern) {
    ScanParams params = new ScanParams().match(pattern).count(BATCH);
    String cursor = ScanParams.SCAN_POINTER_START;
    long count = 0;
    do {
      ScanResult<String> page = connection.scan(cursor, params);
      count += page.getResult().size();
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return count;
  }

  private KeySweep() {}
}
