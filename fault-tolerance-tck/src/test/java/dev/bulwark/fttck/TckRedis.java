package dev.bulwark.fttck;

import dev.bulwark.tck.TestServices;
import java.util.Optional;
import org.opentest4j.TestAbortedException;

/**
 * The Redis server of the bridge-redis run, found as every Bulwark test finds one ({@link
 * TestServices}: {@code BULWARK_TEST_REDIS_URL}, else 127.0.0.1:6379, else Testcontainers). With
 * none, the run's tests are skipped with the reason, which names the variable to set; under {@code
 * CI=true}, or when the variable names a server that does not answer, they fail.
 */
final class TckRedis {

  private static Optional<String> url;
  private static String unavailable;

  private TckRedis() {}

  /**
   * Why the run cannot have a Redis server, or empty when it has one. Throws (an assertion error
   * naming the variable) when the run must fail instead of skipping.
   */
  static synchronized Optional<String> unavailableReason() {
    resolve();
    return Optional.ofNullable(unavailable);
  }

  /** The server's URL, as {@code bulwark.redis.url} takes it. */
  static synchronized String url() {
    resolve();
    return url.orElseThrow(() -> new IllegalStateException(unavailable));
  }

  private static void resolve() {
    if (url != null) {
      return;
    }
    try {
      url = Optional.of(TestServices.redis().url());
    } catch (TestAbortedException e) {
      url = Optional.empty();
      unavailable = e.getMessage();
    }
  }
}
