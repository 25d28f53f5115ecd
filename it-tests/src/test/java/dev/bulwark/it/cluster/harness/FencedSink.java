package dev.bulwark.it.cluster.harness;

import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * The resource a guarded body writes to, standing for the downstream a user protects with a write
 * lock: it accepts a write only with a fencing token at least the last one it accepted for that
 * key, and keeps every attempt (accepted or refused, with token, worker and the writer's instant)
 * in the run's recording Redis — apart from the store, whose own keys it never reads. A holder
 * whose lease lapsed while it was paused must find its late write refused here.
 */
public final class FencedSink {

  /** One attempt as the sink kept it, oldest first. */
  public record Write(
      boolean accepted, String key, long token, String worker, String phase, long nanos) {

    static Write parse(String line) {
      String[] parts = line.split(" ");
      return new Write(
          "ACCEPTED".equals(parts[0]),
          parts[1],
          Long.parseLong(parts[2]),
          parts[3],
          parts[4],
          Long.parseLong(parts[5]));
    }
  }

  /** Accepts the write if its token is at least the key's last accepted one; logs the attempt. */
  private static final String WRITE =
      """
      local token = tonumber(ARGV[2])
      local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
      local accepted = token >= last
      if accepted then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
      redis.call('RPUSH', KEYS[2], (accepted and 'ACCEPTED' or 'REFUSED') .. ' ' .. ARGV[1] .. ' '
          .. ARGV[2] .. ' ' .. ARGV[3] .. ' ' .. ARGV[4] .. ' ' .. ARGV[5])
      return accepted and 1 or 0
      """;

  private final UnifiedJedis redis;
  private final String lastTokens;
  private final String writes;

  public FencedSink(UnifiedJedis redis, String recordPrefix) {
    this.redis = redis;
    this.lastTokens = recordPrefix + "sink:last";
    this.writes = recordPrefix + "sink:writes";
  }

  /**
   * Writes to {@code key} with {@code token}; {@code phase} says which write of the hold it is.
   * Returns whether the sink accepted it.
   */
  public boolean write(String key, long token, String worker, String phase) {
    Object accepted =
        redis.eval(
            WRITE,
            List.of(lastTokens, writes),
            List.of(key, Long.toString(token), worker, phase, Long.toString(System.nanoTime())));
    return Long.valueOf(1).equals(accepted);
  }

  /** Every attempt so far, in the order the sink saw them. */
  public List<Write> writes() {
    return redis.lrange(writes, 0, -1).stream().map(Write::parse).toList();
  }
}
