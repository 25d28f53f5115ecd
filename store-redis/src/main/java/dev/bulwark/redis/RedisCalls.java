package dev.bulwark.redis;

import dev.bulwark.redis.client.LuaScript;
import dev.bulwark.redis.client.OutageGate;
import dev.bulwark.redis.client.ReplicaAcks;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.UnifiedJedis;

/**
 * How the store talks to Redis: every script call goes through the outage gate, and every request
 * id is qualified with this JVM's instance id, so members from different JVMs never collide.
 */
final class RedisCalls {

  /** How long a definition record outlives the last JVM that wrote it. */
  private static final Duration DEFINITION_TTL = Duration.ofDays(30);

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
    return gate.call(() -> script.run(redis, keys, args));
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
