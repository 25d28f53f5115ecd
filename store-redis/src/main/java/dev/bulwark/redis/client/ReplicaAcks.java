package dev.bulwark.redis.client;

import dev.bulwark.spi.StoreException;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.exceptions.JedisAskDataException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisMovedDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.providers.ConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * {@code bulwark.redis.wait-replicas}: a script that grants is followed by {@code WAIT N timeout}
 * on the connection that ran it (WAIT counts the replicas that have every write of its own
 * connection, so it cannot go through another pooled connection), and on a Cluster on the primary
 * of the keys' slot. A grant is returned only once N replicas acknowledged it. When fewer did
 * within the timeout, the call fails as a store failure and the grant is left to run out with its
 * lease: releasing it would hand the permit, which the replicas may never have seen, to the next
 * waiter, who would then hold a permit a failover can forget.
 */
public final class ReplicaAcks {

  /** Redirections (MOVED, ASK, TRYAGAIN while a slot migrates) followed before giving up. */
  private static final int MAX_ATTEMPTS = 5;

  /** The protocol the store's connections speak: the client config leaves Jedis' default, RESP2. */
  private static final CommandObjects COMMANDS = new CommandObjects(RedisProtocol.RESP2);

  private final ConnectionProvider provider;
  private final int replicas;
  private final long timeoutMillis;

  public ReplicaAcks(RedisConnection connection, int replicas, Duration timeout) {
    this.provider = connection.provider();
    this.replicas = replicas;
    this.timeoutMillis = Math.max(1, timeout.toMillis());
  }

  /**
   * Runs {@code script}; when {@code grants} says its reply is a grant, waits for the replicas.
   *
   * @throws StoreException when fewer replicas than configured acknowledged the grant in time
   */
  public Object run(
      LuaScript script, List<String> keys, List<String> args, Predicate<Object> grants) {
    HostAndPort redirectedTo = null;
    boolean asking = false;
    for (int attempt = 1; ; attempt++) {
      try (Connection connection = connectionFor(keys, redirectedTo)) {
        Object reply = evaluate(connection, asking, script, keys, args);
        if (grants.test(reply)) {
          long acknowledged = awaitReplicas(connection);
          if (acknowledged < replicas) {
            throw new StoreException(
                "only "
                    + acknowledged
                    + " of "
                    + replicas
                    + " replicas acknowledged a grant of '"
                    + script.name()
                    + "' within "
                    + timeoutMillis
                    + " ms (bulwark.redis.wait-replicas); it runs out with its lease unused");
          }
        }
        return reply;
      } catch (JedisMovedDataException e) {
        // the slot has a new owner (failover, move): go there, and let the cache learn it
        if (attempt >= MAX_ATTEMPTS) {
          throw e;
        }
        redirectedTo = e.getTargetNode();
        asking = false;
        ((ClusterConnectionProvider) provider).renewSlotCache();
      } catch (JedisAskDataException e) {
        // the slot is moving and the keys are already on the target: ask there, this once
        if (attempt >= MAX_ATTEMPTS) {
          throw e;
        }
        redirectedTo = e.getTargetNode();
        asking = true;
      } catch (JedisDataException e) {
        if (attempt >= MAX_ATTEMPTS || !String.valueOf(e.getMessage()).startsWith("TRYAGAIN")) {
          throw e;
        }
        redirectedTo = null;
        asking = false;
        pause();
      }
    }
  }

  /**
   * {@code WAIT} on the connection that ran the script. Redis answers it only after up to the
   * timeout, so the socket waits that long on top of its read timeout: were the read timeout the
   * shorter one, a missing replica would look like a lost connection, and the grant would be given
   * up (released to the next waiter) instead of left to its lease.
   */
  private long awaitReplicas(Connection connection) {
    int readTimeout = connection.getSoTimeout();
    connection.setSoTimeout((int) Math.min(Integer.MAX_VALUE, readTimeout + timeoutMillis));
    try {
      return connection.executeCommand(COMMANDS.waitReplicas(replicas, timeoutMillis));
    } finally {
      if (!connection.isBroken()) {
        connection.setSoTimeout(readTimeout); // the field too: the pool hands this one out again
      }
    }
  }

  private Connection connectionFor(List<String> keys, HostAndPort redirectedTo) {
    if (provider instanceof ClusterConnectionProvider cluster) {
      return redirectedTo != null
          ? cluster.getConnection(redirectedTo)
          : cluster.getConnectionFromSlot(JedisClusterCRC16.getSlot(keys.get(0)));
    }
    return provider.getConnection();
  }

  /** EVALSHA, then EVAL if the node lacks the script; after ASK, each is preceded by ASKING. */
  private static Object evaluate(
      Connection connection,
      boolean asking,
      LuaScript script,
      List<String> keys,
      List<String> args) {
    try {
      if (asking) {
        connection.executeCommand(Protocol.Command.ASKING);
      }
      return connection.executeCommand(COMMANDS.evalsha(script.sha(), keys, args));
    } catch (JedisNoScriptException e) {
      if (asking) {
        connection.executeCommand(Protocol.Command.ASKING);
      }
      return connection.executeCommand(COMMANDS.eval(script.source(), keys, args));
    }
  }

  private static void pause() {
    try {
      Thread.sleep(10);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while a Redis slot migrated", e);
    }
  }
}
