package dev.bulwark.ftquarkus.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.faulttolerance.api.RateLimit;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A SmallRye {@code @RateLimit} made cluster-wide by config whose minimum spacing, set by a config
 * key, has no cluster-wide equivalent: the Quarkus start fails, naming the method and that key.
 * QuarkusUnitTest builds and starts an application of its own with the bad key.
 */
@Tag("start-failure")
class UnmappableRateLimitOnQuarkusTest {

  @ApplicationScoped
  public static class Spaced {
    @RateLimit(value = 10, window = 1, windowUnit = ChronoUnit.SECONDS)
    public String quote() {
      return "quoted";
    }
  }

  private static final String METHOD = Spaced.class.getName() + "#quote";
  private static final String KEY = Spaced.class.getName() + "/quote/RateLimit/minSpacing";

  @RegisterExtension
  static final QuarkusUnitTest QUARKUS =
      new QuarkusUnitTest()
          .withApplicationRoot(jar -> jar.addClasses(Spaced.class))
          // one class loader, as in the packaged application: Maven puts Bulwark's modules on the
          // test
          // class path as jars and Quarkus resolves them to their classes directories, and with
          // two copies ArC's observer of StartupCheck meets the other copy's package-private method
          .setFlatClassPath(true)
          .overrideConfigKey("bulwark.store", "local")
          .overrideConfigKey(Spaced.class.getName() + "/quote/RateLimit/distributed", "true")
          .overrideConfigKey(KEY, "100")
          .assertException(
              failure ->
                  assertThat(failure)
                      .hasStackTraceContaining(
                          "Cannot make @RateLimit on "
                              + METHOD
                              + " cluster-wide: minSpacing = 100 (from "
                              + KEY
                              + ")"));

  @Test
  void theStartFails() {
    Assertions.fail("Quarkus started with a rate limit the bridge cannot map");
  }
}
