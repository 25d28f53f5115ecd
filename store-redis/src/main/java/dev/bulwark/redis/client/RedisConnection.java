package dev.bulwark.redis.client;

import java.util.List;
import org.apache.commons.pool2.impl.GenericObjectPool;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.providers.ConnectionProvider;
import redis.clients.jedis.providers.SentineledConnectionProvider;

/**
 * The pooled client and its pools. After Redis restarts, every idle pooled connection is dead;
 * dropping them all at the first failure lets the next call reconnect instead of failing once per
 * stale connection.
 */
public final class RedisConnection implements AutoCloseable {

  private final UnifiedJedis client;
  private final ConnectionProvider provider;

  RedisConnection(UnifiedJedis client, ConnectionProvider provider) {
    this.client = client;
    this.provider = provider;
  }

  public UnifiedJedis client() {
    return client;
  }

  ConnectionProvider provider() {
    return provider;
  }

  public boolean isCluster() {
    return provider instanceof ClusterConnectionProvider;
  }

  /** A Cluster's primaries as last looked up; empty for one server or Sentinel. */
  public List<HostAndPort> primaryNodes() {
    if (provider instanceof ClusterConnectionProvider cluster) {
      return cluster.getPrimaryNodes().keySet().stream().map(HostAndPort::from).toList();
    }
    return List.of();
  }

  /**
   * Looks up a Cluster's slots and primaries again (CLUSTER SLOTS on a node that answers), for the
   * commands and for {@link #primaryNodes()}; nothing for one server or Sentinel.
   */
  public void refreshTopology() {
    if (provider instanceof ClusterConnectionProvider cluster) {
      cluster.renewSlotCache();
    }
  }

  /** The master Sentinel currently names (as the pool follows it); null for other topologies. */
  public HostAndPort currentMaster() {
    return provider instanceof SentineledConnectionProvider sentinel
        ? sentinel.getCurrentMaster()
        : null;
  }

  public void dropIdleConnections() {
    if (provider == null) {
      return;
    }
    for (Object pool : provider.getConnectionMap().values()) {
      if (pool instanceof GenericObjectPool<?> idle) {
        idle.clear();
      }
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
