package dev.bulwark.redis;

import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.redis.client.LuaScript;
import dev.bulwark.redis.client.RedisOutageGate;
import dev.bulwark.redis.client.ReplicaAcks;
import dev.bulwark.redis.client.ScriptPipeline;
import dev.bulwark.spi.StoreException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * How the store talks to Redis: every script call goes through the outage gate, and every request
 * id is qualified with this JVM's instance id, so members from different JVMs never collide.
 */
final class RedisCalls {

  private static final BulwarkLog LOG = BulwarkLog.of(RedisCalls.class);

  /** How long a definition record outlives the last JVM that wrote it. */
  private static final Duration DEFINITION_TTL = Duration.ofDays(30);

  private static final int MIGRATION_ATTEMPTS = 5;
  private static final long MIGRATION_PAUSE_MILLIS = 10;

  /** Runs one script on Redis, as {@link LuaScript#run} does; tests put a clock of theirs in. */
  @FunctionalInterface
  interface ScriptRunner {
    Object run(LuaScript script, List<String> keys, List<String> args);
  }

  private final ScriptRunner redis;
  private final RedisOutageGate gate;
  private final String instance;
  private final String wakeUpSecret;

  /**
   * {@code bulwark.redis.wait-replicas} above 0: grants wait for replicas; null otherwise, and for
   * a test's {@link ScriptRunner} (WAIT needs the connection that ran the script, which a runner
   * does not expose).
   */
  private final ReplicaAcks acks;

  /**
   * The store's pipelined connection to the primary, and where what a pipelined call's failure
   * needs (a call on the pooled path, a give-up) is made; null where batches go one at a time.
   */
  private ScriptPipeline pipeline;

  private Executor offPipeline;

  RedisCalls(UnifiedJedis redis, RedisOutageGate gate, String instance, String wakeUpSecret) {
    this(redis, gate, instance, wakeUpSecret, null);
  }

  RedisCalls(
      UnifiedJedis redis,
      RedisOutageGate gate,
      String instance,
      String wakeUpSecret,
      ReplicaAcks acks) {
    this((script, keys, args) -> script.run(redis, keys, args), gate, instance, wakeUpSecret, acks);
  }

  RedisCalls(ScriptRunner redis, RedisOutageGate gate, String instance, String wakeUpSecret) {
    this(redis, gate, instance, wakeUpSecret, null);
  }

  private RedisCalls(
      ScriptRunner redis,
      RedisOutageGate gate,
      String instance,
      String wakeUpSecret,
      ReplicaAcks acks) {
    this.redis = redis;
    this.gate = gate;
    this.instance = instance;
    this.wakeUpSecret = wakeUpSecret;
    this.acks = acks;
  }

  String instance() {
    return instance;
  }

  /**
   * Lets batches go pipelined on {@code pipeline}, several in flight; not with {@code
   * wait-replicas} (a WAIT needs the connection that ran the script, after it ran).
   *
   * @param offPipeline where a failed pipelined batch is sent again or given up: blocking calls,
   *     never made on the pipeline's reading thread
   */
  void pipelineBatches(ScriptPipeline pipeline, Executor offPipeline) {
    if (acks == null) {
      this.pipeline = pipeline;
      this.offPipeline = offPipeline;
    }
  }

  /** Whether batches go pipelined, several in flight. */
  boolean pipelinesBatches() {
    return pipeline != null;
  }

  /**
   * {@link #runBatchOrGiveUp} without holding the calling thread for the round trip, when batches
   * go pipelined: the script is written at once behind those still unanswered. An error reply means
   * Redis did not apply the batch as sent (a script it does not know yet, a replica that took over
   * no writes yet): the batch is sent again on the pooled path, which loads scripts and follows the
   * primary, and every operation is idempotent per request. A lost reply declares an outage at the
   * gate and gives the batch up before its failure is reported, as {@link #runBatchOrGiveUp} does.
   * While the gate fails calls fast, the pooled path answers.
   */
  CompletionStage<Object> runBatchAsync(
      LuaScript script,
      List<String> keys,
      List<String> args,
      Predicate<Object> grants,
      List<String> giveUpArgs) {
    Supplier<Object> pooled = () -> runBatchOrGiveUp(script, keys, args, grants, giveUpArgs);
    if (pipeline == null || gate.isDown()) {
      try {
        return CompletableFuture.completedFuture(pooled.get());
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
    }
    return pipeline
        .evalsha(script, keys, args)
        .handle(
            (reply, failure) -> {
              if (failure == null) {
                return CompletableFuture.completedFuture(reply);
              }
              Throwable cause =
                  failure instanceof CompletionException ? failure.getCause() : failure;
              if (cause instanceof JedisDataException refused) {
                if (String.valueOf(refused.getMessage()).startsWith("READONLY")) {
                  pipeline.reconnect(); // Sentinel named another primary: connect there
                }
                return CompletableFuture.supplyAsync(pooled, offPipeline);
              }
              if (cause instanceof RuntimeException lost) {
                return CompletableFuture.supplyAsync(
                    () -> {
                      StoreException outage = lostReply(lost);
                      if (giveUpArgs != null && mayHaveRun(outage)) {
                        giveUp(outage, script, keys, giveUpArgs);
                      }
                      throw outage;
                    },
                    offPipeline);
              }
              return CompletableFuture.<Object>failedFuture(cause);
            })
        .thenCompose(answered -> answered);
  }

  /** A pipelined call's connection failure, told to the outage gate as any call's would be. */
  private StoreException lostReply(RuntimeException failure) {
    try {
      gate.call(
          () -> {
            throw failure;
          });
    } catch (StoreException told) {
      return told;
    }
    return new StoreException("Redis: " + failure.getMessage(), failure);
  }

  /** What a queued request of this JVM is stored with, so its hand-over notice can be verified. */
  String wakeUpSecret() {
    return wakeUpSecret;
  }

  String member(long requestId) {
    return instance + ":" + requestId;
  }

  Object run(LuaScript script, List<String> keys, List<String> args) {
    return gate.call(() -> runThroughMigration(script, keys, args));
  }

  /**
   * Runs {@code operation} behind the outage gate, as every call is: a connection failure it throws
   * declares an outage, any Redis failure becomes a {@link StoreException}.
   */
  <T> T guarded(Supplier<T> operation) {
    return gate.call(operation);
  }

  /**
   * While a Cluster moves a slot, a script whose keys are split between the two nodes is answered
   * {@code TRYAGAIN} until the keys are moved (milliseconds); it is sent again a few times instead
   * of failing as a store failure.
   */
  private Object runThroughMigration(LuaScript script, List<String> keys, List<String> args) {
    for (int attempt = 1; ; attempt++) {
      try {
        return redis.run(script, keys, args);
      } catch (JedisDataException e) {
        if (attempt >= MIGRATION_ATTEMPTS
            || e.getMessage() == null
            || !e.getMessage().startsWith("TRYAGAIN")) {
          throw e;
        }
        try {
          Thread.sleep(MIGRATION_PAUSE_MILLIS);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  /**
   * Runs a script whose reply may be a grant (an integer above 0: a permit, or a lock's fencing
   * token; never used for a release, whose 1 means released). With {@code wait-replicas} set, a
   * grant is returned only once that many replicas acknowledged it; otherwise this is {@link #run},
   * one round trip.
   */
  Object runGranting(LuaScript script, List<String> keys, List<String> args) {
    return runGranting(script, keys, args, RedisCalls::isGrant);
  }

  /** {@link #runGranting} for a script whose reply {@code grants} tells a grant in. */
  Object runGranting(
      LuaScript script, List<String> keys, List<String> args, Predicate<Object> grants) {
    if (acks == null) {
      return run(script, keys, args);
    }
    return gate.call(() -> acks.run(script, keys, args, grants));
  }

  /** Whether grants wait for replicas ({@code wait-replicas} above 0). */
  boolean waitsForReplicas() {
    return acks != null;
  }

  private static boolean isGrant(Object reply) {
    return reply instanceof Long outcome && outcome > 0;
  }

  /**
   * Runs a script that may grant or queue a request. When its reply is lost (a connection error or
   * a read timeout: it may have run), the request is given up in the store before the failure is
   * reported — {@code giveUp} withdraws it and releases what it was granted — so nothing stays
   * taken until a lease ends. The give-up is best effort: it bypasses the outage gate (which now
   * fails calls fast), and its own failure is dropped, leaving the request to its lease. A grant
   * that fewer replicas than {@code wait-replicas} acknowledged is not given up (that failure has
   * no connection error as its cause): releasing it would hand the permit to the next waiter on
   * state a failover may forget, so it runs out with its lease, as {@link ReplicaAcks} says.
   */
  Object runOrGiveUp(
      LuaScript script,
      List<String> keys,
      List<String> args,
      LuaScript giveUp,
      Supplier<List<String>> giveUpArgs) {
    try {
      return runGranting(script, keys, args);
    } catch (StoreException e) {
      if (mayHaveRun(e)) {
        giveUp(e, giveUp, keys, giveUpArgs.get());
      }
      throw e;
    }
  }

  /**
   * Runs a batch script (its reply {@code grants} tells a grant in, see {@link #runGranting}); when
   * its reply is lost, runs {@code giveUpArgs} through the same script before the failure is
   * reported, as {@link #runOrGiveUp} does: one call that gives up every acquire and poll of the
   * batch. Null {@code giveUpArgs}: nothing to give up. The give-up goes out on another connection
   * and may reach Redis before the batch; the given-up marks ({@code lib/given_up.lua}) make the
   * batch's late arrival harmless: an acquire it gave up first finds its mark and rejects, a poll
   * finds its request withdrawn.
   */
  Object runBatchOrGiveUp(
      LuaScript script,
      List<String> keys,
      List<String> args,
      Predicate<Object> grants,
      List<String> giveUpArgs) {
    try {
      return runGranting(script, keys, args, grants);
    } catch (StoreException e) {
      if (giveUpArgs != null && mayHaveRun(e)) {
        giveUp(e, script, keys, giveUpArgs);
      }
      throw e;
    }
  }

  /**
   * The best-effort give-up after {@code failure}: it bypasses the outage gate (which now fails
   * calls fast), and its own failure is dropped, leaving the requests to their leases.
   */
  void giveUp(StoreException failure, LuaScript script, List<String> keys, List<String> args) {
    try {
      runThroughMigration(script, keys, args);
    } catch (RuntimeException cancelFailed) {
      failure.addSuppressed(cancelFailed);
      LOG.debug(
          "Bulwark: could not give up a request whose reply was lost; its lease ends it",
          cancelFailed);
    }
  }

  /**
   * Whether a failed call may have reached Redis: a connection that broke or timed out after the
   * command was sent, or a Cluster call whose retries ran out (one of them may have run); not a
   * connection that was never made (refused, or timed out while connecting).
   */
  static boolean mayHaveRun(StoreException failure) {
    Throwable cause = failure.getCause();
    if (cause instanceof JedisClusterOperationException) {
      return true;
    }
    return cause instanceof JedisConnectionException && !failedToConnect(cause);
  }

  /** A connect failure; Jedis adds one suppressed exception per address it tried. */
  private static boolean failedToConnect(Throwable failure) {
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      if (isConnectFailure(t)) {
        return true;
      }
      for (Throwable suppressed : t.getSuppressed()) {
        if (isConnectFailure(suppressed)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean isConnectFailure(Throwable t) {
    return t instanceof ConnectException
        || (t instanceof SocketTimeoutException
            && String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("connect"));
  }

  /** Records a definition; returns the differing previous one, with the JVM that wrote it. */
  Optional<String> define(String key, String definition) {
    Object reply =
        run(
            Scripts.DEFINE,
            List.of(key),
            List.of(definition, instance, Long.toString(DEFINITION_TTL.toMillis())));
    if (reply instanceof List<?> previous && previous.size() == 2) {
      return Optional.of(previous.get(0) + " (instance " + previous.get(1) + ")");
    }
    return Optional.empty();
  }
}
