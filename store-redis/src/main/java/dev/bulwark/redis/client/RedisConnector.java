package dev.bulwark.redis.client;

import java.time.Duration;
import java.util.LinkedHashSet;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.SslVerifyMode;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.ConnectionProvider;
import redis.clients.jedis.util.JedisURIHelper;

/** Opens the pooled Jedis client the settings describe: standalone, cluster or sentinel. */
public final class RedisConnector {

  private RedisConnector() {}

  /**
   * @throws InvalidRedisSettingException when TLS is set up so that it cannot work
   */
  public static RedisConnection open(RedisSettings settings) {
    ProviderCapture capture = new ProviderCapture();
    UnifiedJedis client;
    try {
      client = client(settings, capture);
    } catch (RuntimeException e) {
      // Cluster and Sentinel clients connect while they are built
      throw TlsStartCheck.explain(settings, e).orElseThrow(() -> e);
    }
    try {
      TlsStartCheck.verify(settings, client);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
    return new RedisConnection(client, capture.provider);
  }

  private static UnifiedJedis client(RedisSettings settings, ProviderCapture capture) {
    switch (settings.topology()) {
      case CLUSTER:
        return new RedisClusterClient.Builder() {
          @Override
          protected ConnectionProvider createDefaultConnectionProvider() {
            return capture.provider = super.createDefaultConnectionProvider();
          }
        }.nodes(new LinkedHashSet<>(settings.nodes()))
            .clientConfig(clientConfig(settings, settings.user(), settings.password(), -1))
            .poolConfig(pool(settings))
            .maxTotalRetriesDuration(settings.readTimeout().multipliedBy(2))
            .build();
      case SENTINEL:
        JedisClientConfig sentinelConfig =
            clientConfig(settings, settings.user(), settings.password(), -1);
        return new RedisSentinelClient.Builder() {
          @Override
          protected ConnectionProvider createDefaultConnectionProvider() {
            return capture.provider = super.createDefaultConnectionProvider();
          }
        }.masterName(settings.sentinelMaster())
            .sentinels(new LinkedHashSet<>(settings.nodes()))
            .clientConfig(sentinelConfig)
            .sentinelClientConfig(sentinelConfig)
            .poolConfig(pool(settings))
            .build();
      default:
        HostAndPort server = JedisURIHelper.getHostAndPort(settings.url());
        int database =
            JedisURIHelper.hasDbIndex(settings.url())
                ? JedisURIHelper.getDBIndex(settings.url())
                : -1;
        return new RedisClient.Builder() {
          @Override
          protected ConnectionProvider createDefaultConnectionProvider() {
            return capture.provider = super.createDefaultConnectionProvider();
          }
        }.hostAndPort(server)
            .clientConfig(clientConfig(settings, settings.user(), settings.password(), database))
            .poolConfig(pool(settings))
            .build();
    }
  }

  /**
   * A new connection for a wake-up subscription on {@code node}. It speaks RESP2, whatever the
   * pooled connections negotiated: there a PING on a subscription is answered as a pub/sub message
   * ({@code pong}), which the reading thread handles by itself; under RESP3 its answer is a plain
   * reply that Jedis matches to a handler the pinging thread registers only after sending, a race
   * that can end the subscription.
   */
  static Connection subscriptionConnection(RedisSettings settings, HostAndPort node) {
    return new Connection(node, subscriptionConfig(settings));
  }

  /**
   * The store's own pipelined connection to the primary, for batches that may be several in flight:
   * the one server, or the primary Sentinel names now (after a failover the connection is made
   * again to the new one); null on a Cluster, whose batches go through the cluster client (slots,
   * redirections).
   */
  public static ScriptPipeline pipeline(RedisSettings settings, RedisConnection connection) {
    switch (settings.topology()) {
      case CLUSTER:
        return null;
      case SENTINEL:
        return new ScriptPipeline(
            connection::currentMaster,
            configBuilder(settings, settings.user(), settings.password(), -1)
                .protocol(RedisProtocol.RESP2)
                .build(),
            "bulwark-redis-pipeline");
      default:
        int database =
            JedisURIHelper.hasDbIndex(settings.url())
                ? JedisURIHelper.getDBIndex(settings.url())
                : -1;
        HostAndPort server = standaloneServer(settings);
        return new ScriptPipeline(
            () -> server,
            configBuilder(settings, settings.user(), settings.password(), database)
                .protocol(RedisProtocol.RESP2)
                .build(),
            "bulwark-redis-pipeline");
    }
  }

  /** Where a standalone server is, from {@code bulwark.redis.url}. */
  static HostAndPort standaloneServer(RedisSettings settings) {
    return JedisURIHelper.getHostAndPort(settings.url());
  }

  private static JedisClientConfig subscriptionConfig(RedisSettings settings) {
    DefaultJedisClientConfig.Builder config =
        configBuilder(settings, settings.user(), settings.password(), -1);
    return config.protocol(RedisProtocol.RESP2).build();
  }

  /** The builders create the pools; the store keeps hold of them to drop stale connections. */
  private static final class ProviderCapture {
    ConnectionProvider provider;
  }

  private static JedisClientConfig clientConfig(
      RedisSettings settings, String user, String password, int database) {
    return configBuilder(settings, user, password, database).build();
  }

  private static DefaultJedisClientConfig.Builder configBuilder(
      RedisSettings settings, String user, String password, int database) {
    DefaultJedisClientConfig.Builder config =
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(millis(settings.connectTimeout()))
            .socketTimeoutMillis(millis(settings.readTimeout()))
            .clientName("bulwark");
    if (settings.ssl()) {
      config.sslOptions(
          settings.truststore() != null
              ? settings.truststore().sslOptions()
              : SslOptions.builder().sslVerifyMode(SslVerifyMode.FULL).build());
    }
    if (user != null) {
      config.user(user);
    }
    if (password != null) {
      config.password(password);
    }
    if (database > 0) {
      config.database(database);
    }
    return config;
  }

  private static ConnectionPoolConfig pool(RedisSettings settings) {
    ConnectionPoolConfig pool = new ConnectionPoolConfig();
    pool.setMaxTotal(settings.poolSize());
    pool.setMaxIdle(settings.poolSize());
    pool.setMaxWait(settings.readTimeout());
    pool.setTestWhileIdle(false);
    return pool;
  }

  private static int millis(Duration duration) {
    return (int) Math.min(Integer.MAX_VALUE, duration.toMillis());
  }
}
