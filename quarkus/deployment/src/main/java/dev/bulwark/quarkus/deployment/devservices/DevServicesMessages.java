package dev.bulwark.quarkus.deployment.devservices;

/** What Bulwark's Dev Services tell a user who has to set something. */
final class DevServicesMessages {

  private DevServicesMessages() {}

  static String nothingToStart() {
    return "bulwark.store=redis needs a Redis: set bulwark.redis.url (e.g."
        + " bulwark.redis.url=redis://localhost:6379), or bulwark.redis.cluster-nodes or"
        + " bulwark.redis.sentinel.master. In dev and test mode Bulwark starts one itself when none"
        + " is set, but found no Redis of Quarkus' Redis Dev Service, no redis-server on the PATH"
        + " and no container runtime for Testcontainers";
  }
}
