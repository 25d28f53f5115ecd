package dev.bulwark.redis;

import dev.bulwark.redis.client.LuaScript;
import dev.bulwark.redis.client.OutageGate;
import dev.bulwark.redis.client.ReplicaAcks;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * How the store talks to Redis: every script call goes through the outage gate, and every request
 * id is qualified with this JVM's instance id, so members from different JVMs never collide.
 */
final class RedisCalls {

  /** How long a definition record outlives the last JVM that wrote it. */
  private static final Duration DEFINITION_TTL = Duration.ofDays(30);

  private static final int MIGRATION_ATTEMPTS = 5;
  private static final long MIGRATION_PAUSE_MILLIS = 10;

  private final UnifiedJedis redis;
  private final OutageGate gate;
  private final String instance;

  /** {@code bulwark.redis.wait-replicas} above 0: grants wait for replicas; null otherwise. */
  private final ReplicaAcks acks;

  RedisCalls(UnifiedJedis redis, OutageGate gate, String instance) {
    this(redis, gate, instance, null);
  }

  RedisCalls(UnifiedJedis redis, OutageGate gate, String instance, ReplicaAcks acks) {
    this.redis = redis;
    this.gate = gate;
    this.instance = instance;
    this.acks = acks;
  }

  String instance() {
    return instance;
  }

  String member(long requestId) {
    return instance + ":" + requestId;
  }

  Object run(LuaScript script, List<String> keys, List<String> args) {
    return gate.call(() -> runThroughMigration(script, keys, args));
  }

  /**
   * While a Cluster moves a slot, a script whose keys are split between the two nodes is answered
   * {@code TRYAGAIN} until the keys are moved (milliseconds); it is sent again a few times instead
   * of failing as a store failure.
   */
  private Object runThroughMigration(LuaScript script, List<String> keys, List<String> args) {
    for (int attempt = 1; ; attempt++) {
      try {
        return script.run(redis, keys, args);
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
   * Runs a script whose reply may be a grant ({@code {1, token}}). With {@code wait-replicas} set,
   * a grant is returned only once that many replicas acknowledged it; otherwise this is {@link
   * #run}, one round trip.
   */
  Object runGranting(LuaScript script, List<String> keys, List<String> args) {
    if (acks == null) {
      return run(script, keys, args);
    }
    return gate.call(() -> acks.run(script, keys, args, RedisCalls::isGrant));
  }

  private static boolean isGrant(Object reply) {
    return reply instanceof List<?> && Replies.grant(reply).isGranted();
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
