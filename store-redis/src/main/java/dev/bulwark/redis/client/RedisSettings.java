package dev.bulwark.redis.client;

import dev.bulwark.core.config.SettingReader;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * How to reach Redis, read once from {@code bulwark.redis.*}. A bad value fails the start naming
 * its key; {@link #toString()} never shows a password.
 *
 * @param topology standalone ({@code url}), cluster ({@code cluster-nodes}) or sentinel
 * @param url the standalone server; scheme, user, password and database as in the URL
 * @param nodes the cluster's seed nodes, or the sentinels
 * @param sentinelMaster the master's name under Sentinel
 * @param user ACL user, from the standalone URL or {@code user}; null for the default user
 * @param password password, from the standalone URL or {@code password}; null for none
 * @param ssl whether connections use TLS: {@code ssl=true}, or a {@code rediss://} URL
 * @param truststore the certificates trusted for TLS; null for the JVM's default trust store
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
    Truststore truststore,
    int poolSize,
    Duration connectTimeout,
    Duration readTimeout,
    String keyPrefix,
    Duration wakeUpCheckInterval,
    Duration reconnectInterval,
    int waitReplicas,
    Duration waitReplicasTimeout) {

  public static final String PREFIX = "bulwark.redis.";

  /** Every key {@link #from} reads. */
  public static final Set<String> KEYS =
      SettingReader.keys(
          PREFIX,
          "cluster-nodes",
          "sentinel.nodes",
          "sentinel.master",
          "key-prefix",
          "url",
          "user",
          "password",
          "ssl",
          "truststore",
          "truststore-password",
          "truststore-type",
          "pool-size",
          "connect-timeout",
          "read-timeout",
          "wake-up-check-interval",
          "reconnect-interval",
          "wait-replicas",
          "wait-replicas-timeout");

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
      if (master.isPresent() || !sentinels.isEmpty()) {
        throw read.invalid(
            "cluster-nodes",
            read.text("cluster-nodes").orElseThrow(),
            "cannot be combined with bulwark.redis.sentinel.*: choose Cluster or Sentinel");
      }
      topology = Topology.CLUSTER;
      nodes = cluster;
    } else if (master.isPresent()) {
      if (sentinels.isEmpty()) {
        throw read.invalid(
            "sentinel.nodes", "is not set, but bulwark.redis.sentinel.master needs it");
      }
      topology = Topology.SENTINEL;
      nodes = sentinels;
    } else {
      if (!sentinels.isEmpty()) {
        throw read.invalid(
            "sentinel.master",
            "is not set, but bulwark.redis.sentinel.nodes needs it (the name the Sentinels monitor)");
      }
      topology = Topology.STANDALONE;
      nodes = List.of();
    }
    String prefix = read.text("key-prefix").orElse("bulwark:");
    if (prefix.contains("{") || prefix.contains("}")) {
      throw read.invalid("key-prefix", prefix, "must not contain braces (they mark hash tags)");
    }
    URI url = read.url("url", "redis://localhost:6379");
    Optional<String> user = read.text("user");
    Optional<String> password = read.secret("password");
    if (user.isPresent() && password.isEmpty()) {
      throw read.invalid("user", user.get(), "needs bulwark.redis.password");
    }
    Optional<Boolean> sslKey = read.bool("ssl");
    boolean ssl = sslKey.orElse(false);
    if (topology == Topology.STANDALONE) {
      boolean tlsScheme = "rediss".equals(url.getScheme());
      if (tlsScheme && sslKey.equals(Optional.of(false))) {
        throw read.invalid(
            "ssl", "false", "contradicts bulwark.redis.url, whose rediss:// scheme asks for TLS");
      }
      ssl = ssl || tlsScheme;
      if (url.getRawUserInfo() != null) {
        if (user.isPresent() || password.isPresent()) {
          throw read.invalid(
              password.isPresent() ? "password" : "user",
              password.isPresent() ? "***" : user.get(),
              "is set twice: bulwark.redis.url carries credentials too; keep one of them");
        }
        user = Optional.ofNullable(JedisURIHelper.getUser(url));
        password = Optional.ofNullable(JedisURIHelper.getPassword(url));
      }
    }
    return new RedisSettings(
        topology,
        url,
        nodes,
        master.orElse(null),
        user.orElse(null),
        password.orElse(null),
        ssl,
        read.truststore(ssl),
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
    return describe()
        + (ssl ? " over TLS" + (truststore == null ? "" : " trusting " + truststore) : "")
        + " (prefix '"
        + keyPrefix
        + "', pool "
        + poolSize
        + ")";
  }

  private static final Pattern DATABASE = Pattern.compile("/[0-9]{1,9}");

  /** {@code host:port}, the host possibly an IPv6 address in brackets. */
  private static final Pattern HOST_PORT =
      Pattern.compile("([^\\s:\\[\\]]+|\\[[0-9A-Fa-f:.]+\\]):([0-9]+)");

  /** {@code bulwark.redis.*} through core's {@link SettingReader}, plus what only Redis has. */
  private static final class Reader {
    private final SettingReader settings;

    Reader(Function<String, Optional<String>> config) {
      this.settings = new SettingReader(config::apply, InvalidRedisSettingException::new);
    }

    Optional<String> text(String key) {
      return settings.text(PREFIX + key);
    }

    /** A value that must not appear in messages; shown as {@code ***}. */
    Optional<String> secret(String key) {
      return settings.raw(PREFIX + key);
    }

    /** A boolean; anything but one is refused: a typo must not switch TLS off. */
    Optional<Boolean> bool(String key) {
      return settings.bool(PREFIX + key);
    }

    URI url(String key, String fallback) {
      String value = text(key).orElse(fallback);
      URI uri;
      try {
        uri = new URI(value);
      } catch (URISyntaxException e) {
        throw invalid(key, redact(value), "is not a URL");
      }
      String shown = redact(value);
      if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme())) {
        throw invalid(key, shown, "must start with redis:// or rediss://");
      }
      if (uri.getHost() == null) {
        throw invalid(key, shown, "names no host (or its port is not a number)");
      }
      if (uri.getPort() != -1 && (uri.getPort() < 1 || uri.getPort() > 65_535)) {
        throw invalid(key, shown, "has port " + uri.getPort() + ", not one of 1 to 65535");
      }
      String path = uri.getRawPath() == null ? "" : uri.getRawPath();
      if (!path.isEmpty() && !path.equals("/") && !DATABASE.matcher(path).matches()) {
        throw invalid(key, shown, "has path '" + path + "'; only a database number may follow");
      }
      if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
        throw invalid(key, shown, "has a query or fragment, which the Redis store does not read");
      }
      String userInfo = uri.getRawUserInfo();
      if (userInfo != null && !userInfo.contains(":")) {
        throw invalid(
            key, shown, "has credentials without ':' (use redis://user:password@ or :password@)");
      }
      return uri;
    }

    List<HostAndPort> nodes(String key) {
      Optional<String> value = text(key);
      if (value.isEmpty()) {
        return List.of();
      }
      List<HostAndPort> nodes = new ArrayList<>();
      for (String node : value.get().split(",", -1)) {
        String trimmed = node.trim();
        Matcher hostPort = HOST_PORT.matcher(trimmed);
        int port = hostPort.matches() ? parsePort(hostPort.group(2)) : -1;
        if (port < 0) {
          throw invalid(key, value.get(), "'" + trimmed + "' is not host:port (port 1 to 65535)");
        }
        String host = hostPort.group(1);
        nodes.add(
            new HostAndPort(
                host.startsWith("[") ? host.substring(1, host.length() - 1) : host, port));
      }
      return List.copyOf(nodes);
    }

    private static int parsePort(String digits) {
      if (digits.length() > 5) {
        return -1;
      }
      int port = Integer.parseInt(digits);
      return port >= 1 && port <= 65_535 ? port : -1;
    }

    int positiveInt(String key, int fallback) {
      return settings.integer(PREFIX + key, 1, Integer.MAX_VALUE).orElse(fallback);
    }

    int nonNegativeInt(String key, int fallback) {
      return settings.integer(PREFIX + key, 0, Integer.MAX_VALUE).orElse(fallback);
    }

    Duration duration(String key, Duration fallback) {
      Optional<Duration> value = settings.duration(PREFIX + key, ChronoUnit.MILLIS);
      if (value.isEmpty()) {
        return fallback;
      }
      Duration parsed = value.get();
      if (parsed.compareTo(Duration.ofMillis(1)) < 0
          || parsed.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0
          || parsed.toNanos() % 1_000_000 != 0) {
        throw invalid(
            key,
            text(key).orElseThrow(),
            "is not whole milliseconds from 1ms to " + Integer.MAX_VALUE + "ms");
      }
      return parsed;
    }

    /** The trust store for TLS, loaded now, so a bad path, type or password fails the start. */
    Truststore truststore(boolean ssl) {
      Optional<String> path = text("truststore");
      Optional<String> password = secret("truststore-password");
      Optional<String> type = text("truststore-type");
      if (path.isEmpty()) {
        if (password.isPresent()) {
          throw invalid("truststore-password", "***", "is set without bulwark.redis.truststore");
        }
        if (type.isPresent()) {
          throw invalid("truststore-type", type.get(), "is set without bulwark.redis.truststore");
        }
        return null;
      }
      if (!ssl) {
        throw invalid(
            "truststore",
            path.get(),
            "is set but TLS is off: set bulwark.redis.ssl=true or use a rediss:// URL");
      }
      Truststore.Type storeType;
      try {
        storeType = type.map(Truststore.Type::parse).orElse(Truststore.Type.PKCS12);
      } catch (IllegalArgumentException e) {
        throw invalid("truststore-type", type.get(), "must be PKCS12, JKS or PEM");
      }
      if (storeType == Truststore.Type.PEM && password.isPresent()) {
        throw invalid("truststore-password", "***", "is not used by a PEM trust store");
      }
      try {
        return Truststore.load(
            Path.of(path.get()), storeType, password.map(String::toCharArray).orElse(null));
      } catch (InvalidPathException | IOException | GeneralSecurityException e) {
        throw invalid(
            "truststore",
            path.get(),
            "cannot be read as a "
                + storeType
                + " trust store ("
                + e.getMessage()
                + "; check bulwark.redis.truststore-type and -password)");
      } catch (IllegalStateException e) {
        throw invalid("truststore", path.get(), e.getMessage());
      }
    }

    RuntimeException invalid(String key, String value, String problem) {
      return settings.invalid(PREFIX + key, value, problem);
    }

    RuntimeException invalid(String key, String problem) {
      return settings.invalid(PREFIX + key, problem);
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
