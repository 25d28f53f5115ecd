package dev.bulwark.ftquarkus.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A MicroProfile FT {@code @Bulkhead} whose bridge switch ({@code …/Bulkhead/distributed}) is set
 * to what is not a boolean: the Quarkus start fails, naming the method and the key, rather than
 * reading it as false. QuarkusUnitTest builds and starts an application of its own with the bad
 * key.
 */
@Tag("start-failure")
class InvalidBridgeKeyOnQuarkusTest {

  @ApplicationScoped
  public static class Capped {
    @Bulkhead(5)
    public String run() {
      return "ran";
    }
  }

  private static final String METHOD = Capped.class.getName() + "#run";
  private static final String KEY = Capped.class.getName() + "/run/Bulkhead/distributed";

  @RegisterExtension
  static final QuarkusUnitTest QUARKUS =
      new QuarkusUnitTest()
          .withApplicationRoot(jar -> jar.addClasses(Capped.class))
          // one class loader, as in the packaged application: Maven puts Bulwark's modules on the
          // test
          // class path as jars and Quarkus resolves them to their classes directories, and with
          // two copies ArC's observer of StartupCheck meets the other copy's package-private method
          .setFlatClassPath(true)
          .overrideConfigKey("bulwark.store", "local")
          .overrideConfigKey(KEY, "maybe")
          .assertException(
              failure ->
                  assertThat(failure)
                      .hasStackTraceContaining(
                          "Invalid @Bulkhead on "
                              + METHOD
                              + ": config key '"
                              + KEY
                              + "' = 'maybe' is not true or false"));

  @Test
  void theStartFails() {
    Assertions.fail("Quarkus started with a bridge switch that is not a boolean");
  }
}
