package dev.bulwark.fttck;

import dev.bulwark.tck.TestServices;
import java.util.Optional;
import java.util.logging.Logger;
import org.opentest4j.TestAbortedException;

/**
 * The Redis server of the bridge-redis run, found as every Bulwark test finds one ({@link
 * TestServices}: {@code BULWARK_TEST_REDIS_URL}, else 127.0.0.1:6379, else Testcontainers). With
 * none, the run's tests are skipped with the reason, which names the variable to set; under {@code
 * CI=true}, or when the variable names a server that does not answer, they fail.
 */
final class TckRedis {

  private static final Logger LOG = Logger.getLogger(TckRedis.class.getName());

  private static boolean resolved;
  private static String url;
  private static String unavailable;
  private static Error failure;

  private TckRedis() {}

  /**
   * Why the run cannot have a Redis server, or empty when it has one. Throws (an assertion error
   * naming the variable) when the run must fail instead of skipping.
   */
  static synchronized Optional<String> unavailableReason() {
    resolve();
    if (failure != null) {
      throw failure;
    }
    return Optional.ofNullable(unavailable);
  }

  /** The server's URL, as {@code bulwark.redis.url} takes it. */
  static synchronized String url() {
    unavailableReason()
        .ifPresent(
            reason -> {
              throw new IllegalStateException(reason);
            });
    return url;
  }

  /** The server's URL if one was found, without looking for one. */
  static synchronized Optional<String> urlFound() {
    return Optional.ofNullable(url);
  }

  private static void resolve() {
    if (resolved) {
      return;
    }
    resolved = true;
    try {
      url = TestServices.redis().url();
    } catch (TestAbortedException e) {
      unavailable = e.getMessage();
      LOG.warning(() -> "bridge-redis: every test is skipped: " + unavailable);
    } catch (AssertionError e) {
      failure = e;
      LOG.severe(() -> "bridge-redis: every test fails: " + e.getMessage());
    }
  }
}
