package dev.bulwark.quarkus.deployment.devservices;

import java.nio.file.Path;

/**
 * Where the Redis of Bulwark's Dev Service may come from, in the order tried, as far as the build
 * can tell. Also the service's identity: Quarkus keeps a running service across live reloads while
 * this stays equal, and restarts it when it changes.
 *
 * @param redisDevService Quarkus' own Redis Dev Service will start (the Redis client extension is
 *     present, has no hosts and a container runtime answers): its URL is used
 * @param redisServer a {@code redis-server} on the PATH, else null
 * @param containers a container runtime answers (Testcontainers)
 */
record RedisSources(boolean redisDevService, String redisServer, boolean containers) {

  boolean any() {
    return redisDevService || redisServer != null || containers;
  }

  Path redisServerPath() {
    return redisServer == null ? null : Path.of(redisServer);
  }
}
