package dev.bulwark.quarkus.deployment.devservices;

import io.quarkus.deployment.builditem.DockerStatusBuildItem;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Whether a container runtime answers, asked without the ERROR Testcontainers logs ("Could not find
 * a valid Docker environment") when none does.
 *
 * <p>In dev mode Quarkus' Dev Services console asks this for every Dev Service, a {@code
 * redis-server} from the PATH included (to show the service's container, if it has one). Quarkus
 * asks through Testcontainers first, whose look for a Docker environment logs that ERROR on every
 * start and reload of a machine without Docker, although nothing failed and nothing needed a
 * container. Quarkus keeps the answer in the build item for the rest of the build, so asking it
 * here first, with the logger of Testcontainers' environment discovery silent for the length of the
 * question, leaves Quarkus the answer and the log clean. Nothing else is silenced: a container that
 * fails to start still logs as it did.
 */
final class ContainerRuntimeQuestion {

  /** The package whose strategies look for a Docker environment and log the failed look. */
  static final String DISCOVERY_LOGGER = "org.testcontainers.dockerclient";

  private ContainerRuntimeQuestion() {}

  static boolean ask(DockerStatusBuildItem containerRuntime) {
    // held in a variable: the log manager keeps loggers weakly, and a collected one would lose
    // the level before the question ends
    Logger discovery = Logger.getLogger(DISCOVERY_LOGGER);
    Level before = discovery.getLevel();
    discovery.setLevel(Level.OFF);
    try {
      return containerRuntime.isContainerRuntimeAvailable();
    } finally {
      discovery.setLevel(before);
    }
  }
}
