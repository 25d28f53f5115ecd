package dev.bulwark.redis;

import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.core.rate.RateState;
import dev.bulwark.redis.client.LuaScript;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.RateStore;
import dev.bulwark.spi.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Rate limits in Redis: one reservation script per call, or per batch of reservations ({@link
 * #reserveEach}: {@code rate_batch.lua} makes them one by one with the step the single script
 * uses), on the server's clock; the arithmetic is the same as the local store's, in microseconds.
 */
final class RedisRates implements RateStore {

  private final RedisCalls redis;
  private final RedisKeys keys;
  private final boolean rememberReplies;
  private final Map<RateSpec, Call> calls = new ConcurrentHashMap<>();

  /** By limit name, as the remembered replies are kept: one numbering per hash. */
  private final Map<String, CallsInFlight> inFlightByName = new ConcurrentHashMap<>();

  /**
   * @param rememberReplies whether the client may re-send a script (Jedis' Cluster executor does
   *     after a connection error): then every reservation carries this JVM's id and its number, and
   *     the script answers a re-sent one with its first reply instead of taking a second slot
   */
  RedisRates(RedisCalls redis, RedisKeys keys, boolean rememberReplies) {
    this.redis = redis;
    this.keys = keys;
    this.rememberReplies = rememberReplies;
  }

  @Override
  public RateDecision reserve(RateSpec spec, long maxWaitNanos) {
    Call call = calls.computeIfAbsent(spec, this::callOf);
    String maxWait = Long.toString(TimeUnit.NANOSECONDS.toMicros(Math.max(0, maxWaitNanos)));
    if (!rememberReplies) {
      List<String> args = List.of(call.permits(), call.windowMicros(), maxWait);
      return decision((Long) redis.run(call.script(), call.keys(), args));
    }
    CallsInFlight.Started started = call.inFlight().start();
    try {
      List<String> args =
          List.of(
              call.permits(),
              call.windowMicros(),
              maxWait,
              redis.instance(),
              Long.toString(started.number()),
              Long.toString(started.oldestInFlight()));
      return decision((Long) redis.run(call.script(), call.keys(), args));
    } finally {
      call.inFlight().finish(started.number());
    }
  }

  /**
   * One script call for the whole batch. Where the client may re-send it (a Cluster), the batch is
   * one numbered call of this JVM ({@link CallsInFlight}), so the script keeps one reply per batch
   * in flight, not one per reservation or per thread, and a re-sent batch gets its first reply.
   */
  @Override
  public List<RateDecision> reserveEach(RateSpec spec, long[] maxWaitNanos) {
    if (maxWaitNanos.length == 0) {
      return List.of();
    }
    Call call = calls.computeIfAbsent(spec, this::callOf);
    List<String> args = new ArrayList<>(6 + maxWaitNanos.length);
    args.add(call.permits());
    args.add(call.windowMicros());
    args.add(call.type());
    CallsInFlight.Started started = rememberReplies ? call.inFlight().start() : null;
    try {
      // without remembered replies the script reads none of these three
      args.add(started == null ? "" : redis.instance());
      args.add(started == null ? "0" : Long.toString(started.number()));
      args.add(started == null ? "0" : Long.toString(started.oldestInFlight()));
      for (long maxWait : maxWaitNanos) {
        args.add(Long.toString(TimeUnit.NANOSECONDS.toMicros(Math.max(0, maxWait))));
      }
      return decisions(spec, maxWaitNanos.length, redis.run(Scripts.RATE_BATCH, call.keys(), args));
    } finally {
      if (started != null) {
        call.inFlight().finish(started.number());
      }
    }
  }

  /**
   * {@link #reserveEach} pipelined, several batches in flight, where the store has a pipeline (one
   * server or Sentinel, whose client never re-sends a script, so no reply needs remembering). A
   * lone reservation takes the single script, which costs Redis less than a batch of one.
   */
  @Override
  public CompletionStage<List<RateDecision>> reserveEachAsync(RateSpec spec, long[] maxWaitNanos) {
    if (rememberReplies || !redis.pipelinesBatches() || maxWaitNanos.length == 0) {
      return RateStore.super.reserveEachAsync(spec, maxWaitNanos);
    }
    Call call = calls.computeIfAbsent(spec, this::callOf);
    List<String> args = new ArrayList<>(6 + maxWaitNanos.length);
    args.add(call.permits());
    args.add(call.windowMicros());
    if (maxWaitNanos.length == 1) {
      args.add(micros(maxWaitNanos[0]));
      return redis
          .runBatchAsync(call.script(), call.keys(), args, reply -> false, null)
          .thenApply(reply -> List.of(decision(Replies.integer(reply))));
    }
    args.add(call.type());
    args.add(""); // no remembered replies: the script reads none of these three
    args.add("0");
    args.add("0");
    for (long maxWait : maxWaitNanos) {
      args.add(micros(maxWait));
    }
    return redis
        .runBatchAsync(Scripts.RATE_BATCH, call.keys(), args, reply -> false, null)
        .thenApply(reply -> decisions(spec, maxWaitNanos.length, reply));
  }

  private static String micros(long nanos) {
    return Long.toString(TimeUnit.NANOSECONDS.toMicros(Math.max(0, nanos)));
  }

  private static List<RateDecision> decisions(RateSpec spec, int expected, Object reply) {
    if (!(reply instanceof List<?> values) || values.size() != expected) {
      throw new StoreException(
          "Unexpected reply from a Bulwark batch of "
              + expected
              + " reservations on "
              + spec.name()
              + ": "
              + reply);
    }
    List<RateDecision> decisions = new ArrayList<>(values.size());
    for (Object value : values) {
      decisions.add(decision(Replies.integer(value)));
    }
    return decisions;
  }

  /**
   * Reads a rate script's reply: when granted, the delay before the reserved slot in micros (>= 0);
   * when rejected, -1 - the micros until the next permit.
   */
  static RateDecision decision(long reply) {
    return reply >= 0
        ? RateDecision.grantedAfter(TimeUnit.MICROSECONDS.toNanos(reply))
        : RateDecision.rejected(TimeUnit.MICROSECONDS.toNanos(-1 - reply));
  }

  /** What every reservation of one limit sends alike, worked out once. */
  private record Call(
      LuaScript script,
      List<String> keys,
      String type,
      String permits,
      String windowMicros,
      CallsInFlight inFlight) {}

  private Call callOf(RateSpec spec) {
    LuaScript script;
    switch (spec.type()) {
      case FIXED:
        script = Scripts.RATE_FIXED;
        break;
      case ROLLING:
        script = Scripts.RATE_ROLLING;
        break;
      default:
        script = Scripts.RATE_SMOOTH;
    }
    String type = spec.type().name().toLowerCase(Locale.ROOT);
    String state = keys.rate(spec.name(), type);
    return new Call(
        script,
        rememberReplies ? List.of(state, keys.rateReplies(spec.name())) : List.of(state),
        type,
        Integer.toString(spec.permits()),
        Long.toString(TimeUnit.NANOSECONDS.toMicros(spec.windowNanos())),
        inFlightByName.computeIfAbsent(spec.name(), name -> new CallsInFlight()));
  }

  /**
   * Reads the state in one round trip and counts the permits with the arithmetic the scripts share,
   * in the scripts' unit (micros).
   */
  @Override
  public RateLimitSnapshot inspect(RateSpec spec) {
    String type = spec.type().name().toLowerCase(Locale.ROOT);
    List<?> reply =
        (List<?>)
            redis.run(Scripts.RATE_INSPECT, List.of(keys.rate(spec.name(), type)), List.of(type));
    long now = Replies.number(reply.get(0));
    long[] numbers = new long[reply.size() - 1];
    for (int i = 0; i < numbers.length; i++) {
      numbers[i] = Replies.number(reply.get(i + 1));
    }
    RateState state =
        numbers.length == 0
            ? RateState.initial(spec.type())
            : RateState.fromLongs(spec.type(), numbers);
    RateSpec inMicros =
        new RateSpec(
            spec.name(),
            spec.type(),
            spec.permits(),
            TimeUnit.NANOSECONDS.toMicros(spec.windowNanos()));
    return new RateLimitSnapshot(spec.name(), spec.permits(), state.available(inMicros, now));
  }

  @Override
  public Optional<String> define(RateSpec spec) {
    return redis.define(keys.rateDefinition(spec.name()), spec.definition());
  }
}
