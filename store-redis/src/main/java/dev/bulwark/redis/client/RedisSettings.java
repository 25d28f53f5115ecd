package dev.bulwark.redis.client;

import dev.bulwark.core.config.Durations;
import java.net.URI;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import redis.clients.jedis.HostAndPort;

/**
 * How to reach Redis, read once from {@code bulwark.redis.*}. A bad value fails the start naming
 * its key; {@link #toString()} never shows a password.
 *
 * @param topology standalone ({@code url}), cluster ({@code cluster-nodes}) or sentinel
 * @param url the standalone server; scheme, user, password and database as in the URL
 * @param nodes the cluster's seed nodes, or the sentinels
 * @param sentinelMaster the master's name under Sentinel
 * @param user ACL user for cluster and sentinel (a standalone URL carries its own)
 * @param password password for cluster and sentinel
 * @param ssl TLS for cluster and sentinel ({@code rediss://} for standalone)
 * @param poolSize connections per node
 * @param connectTimeout connect timeout
 * @param readTimeout socket read timeout
 * @param keyPrefix the prefix of every key and channel
 * @param wakeUpCheckInterval how long a waiter trusts pub/sub before it polls once
 * @param reconnectInterval while Redis is unreachable, how often one call tries it again; also how
 *     often a Cluster's primaries are looked up again for the wake-up subscriptions
 * @param waitReplicas how many replicas must acknowledge a grant before the caller gets it ({@code
 *     WAIT}); 0 sends no {@code WAIT}
 * @param waitReplicasTimeout how long a grant waits for those acknowledgements
 */
public record RedisSettings(
    Topology topology,
    URI url,
    List<HostAndPort> nodes,
    String sentinelMaster,
    String user,
    String password,
    boolean ssl,
    int poolSize,
    Duration connectTimeout,
    Duration readTimeout,
    String keyPrefix,
    Duration wakeUpCheckInterval,
    Duration reconnectInterval,
    int waitReplicas,
    Duration waitReplicasTimeout) {

  public static final String PREFIX = "bulwark.redis.";

  public enum Topology {
    STANDALONE,
    CLUSTER,
    SENTINEL
  }

  public static RedisSettings from(Function<String, Optional<String>> config) {
    Reader read = new Reader(config);
    List<HostAndPort> cluster = read.nodes("cluster-nodes");
    List<HostAndPort> sentinels = read.nodes("sentinel.nodes");
    Optional<String> master = read.text("sentinel.master");
    Topology topology;
    List<HostAndPort> nodes;
    if (!cluster.isEmpty()) {
      topology = Topology.CLUSTER;
      nodes = cluster;
    } else if (master.isPresent()) {
      if (sentinels.isEmpty()) {
        throw read.invalid("sentinel.nodes", "", "is required with bulwark.redis.sentinel.master");
      }
      topology = Topology.SENTINEL;
      nodes = sentinels;
    } else {
      topology = Topology.STANDALONE;
      nodes = List.of();
    }
    String prefix = read.text("key-prefix").orElse("bulwark:");
    if (prefix.contains("{") || prefix.contains("}")) {
      throw read.invalid("key-prefix", prefix, "must not contain braces (they mark hash tags)");
    }
    return new RedisSettings(
        topology,
        read.url("url", "redis://localhost:6379"),
        nodes,
        master.orElse(null),
        read.text("user").orElse(null),
        read.text("password").orElse(null),
        read.text("ssl").map(Boolean::parseBoolean).orElse(false),
        read.positiveInt("pool-size", 32),
        read.duration("connect-timeout", Duration.ofSeconds(2)),
        read.duration("read-timeout", Duration.ofSeconds(2)),
        prefix,
        read.duration("wake-up-check-interval", Duration.ofMillis(500)),
        read.duration("reconnect-interval", Duration.ofSeconds(1)),
        read.nonNegativeInt("wait-replicas", 0),
        read.duration("wait-replicas-timeout", Duration.ofMillis(100)));
  }

  /** Where Redis is, without credentials, for logs and messages. */
  public String describe() {
    switch (topology) {
      case CLUSTER:
        return "Redis Cluster " + nodes;
      case SENTINEL:
        return "Redis Sentinel master '" + sentinelMaster + "' via " + nodes;
      default:
        return "Redis "
            + url.getScheme()
            + "://"
            + url.getHost()
            + (url.getPort() < 0 ? "" : ":" + url.getPort())
            + (url.getPath() == null ? "" : url.getPath());
    }
  }

  @Override
  public String toString() {
    return describe() + " (prefix '" + keyPrefix + "', pool " + poolSize + ")";
  }

  private static final class Reader {
    private final Function<String, Optional<String>> config;

    Reader(Function<String, Optional<String>> config) {
      this.config = config;
    }

    Optional<String> text(String key) {
      return config.apply(PREFIX + key).map(String::trim).filter(v -> !v.isEmpty());
    }

    URI url(String key, String fallback) {
      String value = text(key).orElse(fallback);
      try {
        URI uri = URI.create(value);
        if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme())) {
          throw invalid(key, redact(value), "must start with redis:// or rediss://");
        }
        if (uri.getHost() == null) {
          throw invalid(key, redact(value), "names no host");
        }
        return uri;
      } catch (IllegalArgumentException e) {
        if (e instanceof InvalidRedisSettingException) {
          throw e;
        }
        throw invalid(key, redact(value), "is not a URL");
      }
    }

    List<HostAndPort> nodes(String key) {
      List<HostAndPort> nodes = new ArrayList<>();
      for (String node : text(key).map(v -> v.split(",")).orElse(new String[0])) {
        String trimmed = node.trim();
        int colon = trimmed.lastIndexOf(':');
        try {
          nodes.add(
              new HostAndPort(
                  trimmed.substring(0, colon), Integer.parseInt(trimmed.substring(colon + 1))));
        } catch (RuntimeException e) {
          throw invalid(key, trimmed, "is not host:port");
        }
      }
      return List.copyOf(nodes);
    }

    int positiveInt(String key, int fallback) {
      Optional<String> value = text(key);
      try {
        int parsed = value.map(Integer::parseInt).orElse(fallback);
        if (parsed > 0) {
          return parsed;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw invalid(key, value.orElse(""), "must be a positive whole number");
    }

    int nonNegativeInt(String key, int fallback) {
      Optional<String> value = text(key);
      try {
        int parsed = value.map(Integer::parseInt).orElse(fallback);
        if (parsed >= 0) {
          return parsed;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw invalid(key, value.orElse(""), "must be a whole number, 0 or more");
    }

    Duration duration(String key, Duration fallback) {
      Optional<String> value = text(key);
      try {
        Duration parsed = value.map(v -> Durations.parse(v, ChronoUnit.MILLIS)).orElse(fallback);
        if (!parsed.isNegative() && !parsed.isZero()) {
          return parsed;
        }
      } catch (RuntimeException e) {
        // reported below
      }
      throw invalid(key, value.orElse(""), "must be a positive duration such as 500ms or 2s");
    }

    InvalidRedisSettingException invalid(String key, String value, String problem) {
      return new InvalidRedisSettingException(
          "Invalid Bulwark setting " + PREFIX + key + "='" + value + "': " + problem);
    }

    private static String redact(String url) {
      // up to the last '@': a password may hold unescaped '@' or '/' in a URL that fails to parse
      int at = url.lastIndexOf('@');
      int start = url.indexOf("//");
      return at < 0 || start < 0 || start > at
          ? url
          : url.substring(0, start + 2) + "***" + url.substring(at);
    }
  }
}
