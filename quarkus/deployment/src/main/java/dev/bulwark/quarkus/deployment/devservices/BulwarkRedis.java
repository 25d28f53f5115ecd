package dev.bulwark.quarkus.deployment.devservices;

import io.quarkus.deployment.builditem.Startable;
import org.jboss.logging.Logger;

/**
 * The Redis that Bulwark's Dev Service hands the application as {@code bulwark.redis.url}: the one
 * Quarkus' Redis Dev Service started when there is one, else a {@code redis-server} from the PATH,
 * else a container. What it started, it stops with the application.
 */
final class BulwarkRedis implements Startable {

  private static final Logger LOG = Logger.getLogger(BulwarkRedis.class);

  private final RedisSources sources;
  private volatile String redisDevServiceHosts;
  private AutoCloseable started;
  private String url;
  private String containerId;
  private String origin;

  BulwarkRedis(RedisSources sources) {
    this.sources = sources;
  }

  /** Called before {@link #start()} with {@code quarkus.redis.hosts} when that service started. */
  void useRedisDevService(String hosts) {
    this.redisDevServiceHosts = hosts;
  }

  @Override
  public void start() {
    if (redisDevServiceHosts != null && !redisDevServiceHosts.isBlank()) {
      url = redisDevServiceHosts.split(",")[0].trim();
      origin = "the Redis of Quarkus' Redis Dev Service";
    } else if (sources.redisServer() != null) {
      RedisServerProcess server = RedisServerProcess.start(sources.redisServerPath());
      started = server;
      url = server.url();
      origin = sources.redisServer() + " (pid " + server.pid() + "), stopped with the application";
    } else if (sources.containers()) {
      RedisContainer container = RedisContainer.start();
      started = container;
      url = container.url();
      containerId = container.containerId();
      origin = "a " + RedisContainer.IMAGE + " container, stopped with the application";
    } else {
      // the build step fails the build before: only a service reused after a change gets here
      throw new IllegalStateException(DevServicesMessages.nothingToStart());
    }
    LOG.infof("Bulwark: bulwark.redis.url=%s, %s", url, origin);
  }

  String url() {
    return url;
  }

  @Override
  public String getConnectionInfo() {
    return url;
  }

  @Override
  public String getContainerId() {
    return containerId;
  }

  @Override
  public void close() {
    if (started != null) {
      try {
        started.close();
      } catch (Exception e) {
        LOG.warnf(e, "Bulwark: could not stop the Redis at %s", url);
      }
      started = null;
    }
  }
}
