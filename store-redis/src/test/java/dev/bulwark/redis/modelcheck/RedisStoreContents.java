package dev.bulwark.redis.modelcheck;

import dev.bulwark.tck.modelcheck.StoreContents;
import dev.bulwark.tck.modelcheck.Times;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Redis store's side of one state: everything the scripts keep for the bulkhead or the lock key
 * — holders (or readers) with their lease expiries, the queue, the waiters' entries, and the lock's
 * state hash (writer, its expiry, the fencing counter) — as read in one script call, with the
 * wake-ups sent since the last read.
 */
record RedisStoreContents(
    Map<String, Long> holders,
    List<String> queue,
    Map<String, String> waiters,
    Map<String, String> state,
    List<String> wakeUps)
    implements StoreContents {

  /** The keys of a bulkhead or a lock key, in the order the read and write scripts take them. */
  enum Structure {
    HOLDERS,
    QUEUE,
    WAITERS,
    STATE
  }

  static final RedisStoreContents EMPTY =
      new RedisStoreContents(Map.of(), List.of(), Map.of(), Map.of(), List.of());

  RedisStoreContents {
    holders = new TreeMap<>(holders);
    queue = List.copyOf(queue);
    waiters = new TreeMap<>(waiters);
    state = new TreeMap<>(state);
    wakeUps = List.copyOf(wakeUps);
  }

  /**
   * Reads holders, queue, waiters and state (KEYS 1-4) and drains the wake-up list (KEYS 5). The
   * store keeps a waiter in three places (its place in the queue, its lease in the waiters' sorted
   * set, its mode and secret in the state hash); the contents show it as before, one entry {@code
   * <mode>:<lease expiry>:<secret>} per waiter, so states compare by what they mean. A {@code
   * queued:} field without a lease stays in the state, where it shows.
   */
  static final String READ =
      """
      local holders = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
      local queue = redis.call('ZRANGE', KEYS[2], 0, -1)
      local leases = redis.call('ZRANGE', KEYS[3], 0, -1, 'WITHSCORES')
      local fields = redis.call('HGETALL', KEYS[4])
      local entries = {}
      for i = 1, #fields, 2 do
        local member = string.match(fields[i], '^queued:(.*)$')
        if member then
          entries[member] = fields[i + 1]
        end
      end
      local waiters = {}
      for i = 1, #leases, 2 do
        local mode, secret = string.match(entries[leases[i]] or '?:', '^(.-):(.*)$')
        entries[leases[i]] = nil
        waiters[#waiters + 1] = leases[i]
        waiters[#waiters + 1] = mode .. ':' .. leases[i + 1] .. ':' .. secret
      end
      local state = {}
      for i = 1, #fields, 2 do
        local member = string.match(fields[i], '^queued:(.*)$')
        if not member or entries[member] then
          state[#state + 1] = fields[i]
          state[#state + 1] = fields[i + 1]
        end
      end
      local wakes = redis.call('LRANGE', KEYS[5], 0, -1)
      redis.call('DEL', KEYS[5])
      return {holders, queue, waiters, state, wakes}
      """;

  /**
   * Writes contents back (KEYS 1-5 as for {@link #READ}, KEYS 6 the clock): ARGV is the clock in
   * micros, then each structure as a count followed by its elements.
   */
  static final String WRITE =
      """
      redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
      redis.call('SET', KEYS[6], ARGV[1], 'PX', 3600000)
      local i = 2
      local function each(step, write)
        local n = tonumber(ARGV[i])
        i = i + 1
        for _ = 1, n do
          write(i)
          i = i + step
        end
      end
      local arrival = 0
      each(2, function(j) redis.call('ZADD', KEYS[1], ARGV[j + 1], ARGV[j]) end)
      each(1, function(j)
        arrival = arrival + 1
        redis.call('ZADD', KEYS[2], arrival, ARGV[j])
      end)
      each(2, function(j)
        local mode, expiry, secret = string.match(ARGV[j + 1], '^(.-):(%d+):?(.*)$')
        redis.call('ZADD', KEYS[3], expiry, ARGV[j])
        redis.call('HSET', KEYS[4], 'queued:' .. ARGV[j], mode .. ':' .. secret)
      end)
      each(2, function(j) redis.call('HSET', KEYS[4], ARGV[j], ARGV[j + 1]) end)
      return 1
      """;

  static RedisStoreContents fromReply(Object reply) {
    List<?> parts = (List<?>) reply;
    Map<String, Long> holders = new LinkedHashMap<>();
    List<String> flat = texts(parts.get(0));
    for (int i = 0; i < flat.size(); i += 2) {
      holders.put(flat.get(i), (long) Double.parseDouble(flat.get(i + 1)));
    }
    return new RedisStoreContents(
        holders,
        texts(parts.get(1)),
        pairs(parts.get(2)),
        pairs(parts.get(3)),
        texts(parts.get(4)));
  }

  /** The arguments of {@link #WRITE}. */
  List<String> writeArgs(long clockMicros) {
    List<String> args = new ArrayList<>();
    args.add(Long.toString(clockMicros));
    args.add(Integer.toString(holders.size()));
    holders.forEach(
        (member, expiry) -> {
          args.add(member);
          args.add(Long.toString(expiry));
        });
    args.add(Integer.toString(queue.size()));
    args.addAll(queue);
    addPairs(args, waiters);
    addPairs(args, state);
    return args;
  }

  private static void addPairs(List<String> args, Map<String, String> pairs) {
    args.add(Integer.toString(pairs.size()));
    pairs.forEach(
        (field, value) -> {
          args.add(field);
          args.add(value);
        });
  }

  /** The keys that exist, by their {@link Structure}'s name in lower case. */
  @Override
  public List<String> present() {
    List<Structure> present = new ArrayList<>();
    if (!holders.isEmpty()) {
      present.add(Structure.HOLDERS);
    }
    if (!queue.isEmpty()) {
      present.add(Structure.QUEUE);
    }
    if (!waiters.isEmpty()) {
      present.add(Structure.WAITERS);
    }
    if (!state.isEmpty()) {
      present.add(Structure.STATE);
    }
    return present.stream().map(s -> s.name().toLowerCase(Locale.ROOT)).toList();
  }

  /** Whether the keys hold the same as {@code other}'s (the wake-ups aside). */
  @Override
  public boolean sameKeys(StoreContents other) {
    RedisStoreContents redis = (RedisStoreContents) other;
    return holders.equals(redis.holders)
        && queue.equals(redis.queue)
        && waiters.equals(redis.waiters)
        && state.equals(redis.state);
  }

  /** Holders whose lease runs past {@code now}. */
  @Override
  public List<String> liveHolders(long now) {
    return holders.entrySet().stream()
        .filter(e -> e.getValue() > now)
        .map(Map.Entry::getKey)
        .toList();
  }

  /** The lock's writer while its lease runs, else null. */
  @Override
  public String liveWriter(long now) {
    String writer = state.get("writer");
    String until = state.get("writer_until");
    return writer != null && until != null && Long.parseLong(until) > now ? writer : null;
  }

  @Override
  public String writer() {
    return state.get("writer");
  }

  /** The lease expiry the store holds for {@code member}, held or written, or null. */
  @Override
  public Long heldUntil(String member) {
    if (member.equals(state.get("writer"))) {
      return Long.parseLong(state.get("writer_until"));
    }
    return holders.get(member);
  }

  /** The fencing counter, or null when the key has none. */
  @Override
  public Long fence() {
    String fence = state.get("fence");
    return fence == null ? null : Long.parseLong(fence);
  }

  /** Queued requests with live entries, in queue order. */
  @Override
  public List<Waiter> liveWaiters(long now) {
    List<Waiter> live = new ArrayList<>();
    for (String member : queue) {
      String entry = waiters.get(member);
      if (entry != null && expiryOf(entry) > now) {
        live.add(new Waiter(member, entry.substring(0, 1)));
      }
    }
    return live;
  }

  /** The lease expiry of a waiter's entry. */
  @Override
  public Long waitingUntil(String member) {
    String entry = waiters.get(member);
    return entry == null ? null : expiryOf(entry);
  }

  private static long expiryOf(String entry) {
    return Long.parseLong(entry.split(":")[1]);
  }

  /**
   * Everything the scripts can still tell apart, relative to {@code now}: expiries as time ahead or
   * passed, the fencing counter relative to the clock in micros (a write grant takes the larger of
   * the two), the waiters' wake-up secrets left out (one per JVM, never changed).
   */
  @Override
  public String canonical(long now) {
    StringBuilder out = new StringBuilder();
    holders.forEach(
        (member, expiry) -> out.append(member).append(Times.ahead(expiry, now)).append(','));
    out.append('|').append(String.join(",", queue)).append('|');
    waiters.forEach(
        (member, entry) ->
            out.append(member)
                .append(entry, 0, 1)
                .append(Times.ahead(expiryOf(entry), now))
                .append(','));
    out.append('|');
    state.forEach(
        (field, value) -> {
          out.append(field).append('=');
          switch (field) {
            case "writer_until" -> out.append(Times.ahead(Long.parseLong(value), now));
            case "fence" -> out.append(Times.ahead(Long.parseLong(value) + 1, now * 1000));
            default -> out.append(value);
          }
          out.append(',');
        });
    return out.toString();
  }

  private static List<String> texts(Object reply) {
    List<String> texts = new ArrayList<>();
    for (Object item : (List<?>) reply) {
      texts.add(
          item instanceof byte[] bytes
              ? new String(bytes, StandardCharsets.UTF_8)
              : String.valueOf(item));
    }
    return texts;
  }

  private static Map<String, String> pairs(Object reply) {
    List<String> flat = texts(reply);
    Map<String, String> pairs = new LinkedHashMap<>();
    for (int i = 0; i < flat.size(); i += 2) {
      pairs.put(flat.get(i), flat.get(i + 1));
    }
    return pairs;
  }
}
