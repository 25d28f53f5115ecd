package dev.bulwark.quarkus.deployment.devservices;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/** A Redis container started through Testcontainers, where a container runtime answers. */
final class RedisContainer implements AutoCloseable {

  static final String IMAGE = "redis:7-alpine";
  private static final int PORT = 6379;

  private final GenericContainer<?> container;

  private RedisContainer(GenericContainer<?> container) {
    this.container = container;
  }

  static RedisContainer start() {
    GenericContainer<?> container =
        new GenericContainer<>(DockerImageName.parse(IMAGE)).withExposedPorts(PORT);
    container.start();
    return new RedisContainer(container);
  }

  String url() {
    return "redis://" + container.getHost() + ":" + container.getMappedPort(PORT);
  }

  String containerId() {
    return container.getContainerId();
  }

  @Override
  public void close() {
    container.stop();
  }
}
