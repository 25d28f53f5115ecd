package dev.bulwark.redis.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Runs many calls of one script on a Cluster in one round trip per primary: each call's keys share
 * a slot, the calls are grouped by the primary that serves their slot (as last looked up), and each
 * group goes out as one pipeline on one connection. What the cluster client would do for a single
 * call (follow a redirection, load a missing script) is left to the caller, who gets each call's
 * reply or its failure and may send the failed ones again one by one.
 */
public final class SlotPipelines {

  private final ClusterConnectionProvider provider;

  public SlotPipelines(RedisConnection connection) {
    this.provider = (ClusterConnectionProvider) connection.provider();
  }

  /** One call: keys of one slot, and its arguments. */
  public record Call(List<String> keys, List<String> args) {}

  /**
   * @return per call, in order, its reply or the {@link RuntimeException} it failed with: an error
   *     reply ({@link JedisDataException}: MOVED, ASK, NOSCRIPT, TRYAGAIN ...) or the connection
   *     failure of its whole pipeline ({@link JedisConnectionException})
   */
  public List<Object> run(LuaScript script, List<Call> calls) {
    Map<HostAndPort, List<Integer>> byNode = new LinkedHashMap<>();
    for (int i = 0; i < calls.size(); i++) {
      int slot = JedisClusterCRC16.getSlot(calls.get(i).keys().get(0));
      HostAndPort node = provider.getNode(slot);
      if (node == null) {
        // slots not known (yet): the first lookup answers
        provider.renewSlotCache();
        node = provider.getNode(slot);
        if (node == null) {
          throw new JedisConnectionException("no Redis Cluster node serves slot " + slot);
        }
      }
      byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(i);
    }
    Object[] replies = new Object[calls.size()];
    for (Map.Entry<HostAndPort, List<Integer>> node : byNode.entrySet()) {
      List<Integer> positions = node.getValue();
      try (Connection connection = provider.getConnection(node.getKey())) {
        Pipeline pipeline = new Pipeline(connection);
        List<Response<Object>> responses = new ArrayList<>(positions.size());
        for (int position : positions) {
          Call call = calls.get(position);
          responses.add(pipeline.evalsha(script.sha(), call.keys(), call.args()));
        }
        pipeline.sync();
        for (int i = 0; i < positions.size(); i++) {
          try {
            replies[positions.get(i)] = responses.get(i).get();
          } catch (JedisDataException e) {
            replies[positions.get(i)] = e;
          }
        }
      } catch (JedisConnectionException e) {
        for (int position : positions) {
          if (replies[position] == null) {
            replies[position] = e;
          }
        }
      }
    }
    return Arrays.asList(replies);
  }
}
