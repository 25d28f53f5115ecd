package dev.bulwark.quarkus.deployment.devservices;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedBulkhead;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testcontainers.DockerClientFactory;

/**
 * {@code bulwark.store=redis} with no Redis configured, and nothing Bulwark could start one with:
 * the application does not start, and the message names the key to set. Runs in its own surefire
 * execution, whose PATH has no {@code redis-server}; elsewhere it is skipped.
 */
@EnabledIf(
    value = "nothingToStartRedisWith",
    disabledReason =
        "runs where no redis-server is on the PATH and no container runtime answers"
            + " (the no-redis-server-on-path execution of this module)")
class NoRedisAvailableTest {

  private static final AtomicReference<Throwable> FAILURE = new AtomicReference<>();

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .withApplicationRoot(archive -> archive.addClasses(Guarded.class))
          .overrideConfigKey("quarkus.http.test-port", "0")
          .overrideConfigKey("bulwark.store", "redis")
          .assertException(FAILURE::set);

  static boolean nothingToStartRedisWith() {
    return ExecutableOnPath.find("redis-server").isEmpty()
        && !DockerClientFactory.instance().isDockerAvailable();
  }

  @Test
  void theStartFailsNamingTheKeyToSet() {
    Throwable root = FAILURE.get();
    assertThat(root).as("the start failed").isNotNull();
    while (root.getCause() != null) {
      root = root.getCause();
    }
    assertThat(root.getMessage())
        .contains("bulwark.store=redis needs a Redis: set bulwark.redis.url")
        .contains("no redis-server on the PATH")
        .contains("no container runtime");
  }

  @ApplicationScoped
  public static class Guarded {
    @DistributedBulkhead(name = "nothing-to-start", value = 1)
    public void call() {}
  }
}
