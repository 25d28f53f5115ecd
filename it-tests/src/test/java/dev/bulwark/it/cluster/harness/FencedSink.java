package dev.bulwark.it.cluster.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /** One hold of a key: its worker and its fencing token. */
    public String hold() {
      return worker + "@" + key + "#" + token;
    }

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

  /**
   * The witness's verdict on exclusion: the holds (worker and token) of a key with an accepted
   * write of another hold of that key between their first and last accepted writes, in the sink's
   * order — two holders that both wrote in one stretch. Empty when every hold wrote alone.
   */
  public static List<String> interleavedHolds(List<Write> writes) {
    Map<String, List<Write>> acceptedByKey = new LinkedHashMap<>();
    for (Write write : writes) {
      if (write.accepted()) {
        acceptedByKey.computeIfAbsent(write.key(), k -> new ArrayList<>()).add(write);
      }
    }
    List<String> interleaved = new ArrayList<>();
    for (List<Write> accepted : acceptedByKey.values()) {
      Map<String, Integer> lastOfHold = new LinkedHashMap<>();
      for (int i = 0; i < accepted.size(); i++) {
        lastOfHold.put(accepted.get(i).hold(), i);
      }
      Map<String, Boolean> judged = new LinkedHashMap<>();
      for (int first = 0; first < accepted.size(); first++) {
        Write opening = accepted.get(first);
        if (judged.putIfAbsent(opening.hold(), Boolean.TRUE) != null) {
          continue;
        }
        int last = lastOfHold.get(opening.hold());
        for (int i = first + 1; i < last; i++) {
          if (!accepted.get(i).hold().equals(opening.hold())) {
            interleaved.add(opening.hold() + " around " + accepted.get(i));
            break;
          }
        }
      }
    }
    return interleaved;
  }

  /** Every attempt so far, in the order the sink saw them. */
  public List<Write> writes() {
    return redis.lrange(writes, 0, -1).stream().map(Write::parse).toList();
  }
}
