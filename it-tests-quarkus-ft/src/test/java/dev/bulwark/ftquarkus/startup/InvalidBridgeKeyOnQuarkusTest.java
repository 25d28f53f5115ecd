package dev.bulwark.ftquarkus.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A MicroProfile FT {@code @Bulkhead} made cluster-wide by config whose Bulwark cap is set by a
 * {@code bulwark.…} key to what is not a number: the Quarkus start fails, naming the method and the
 * key. QuarkusUnitTest builds and starts an application of its own with the bad key.
 */
class InvalidBridgeKeyOnQuarkusTest {

  @ApplicationScoped
  public static class Capped {
    @Bulkhead(5)
    public String run() {
      return "ran";
    }
  }

  private static final String METHOD = Capped.class.getName() + "#run";
  private static final String KEY = "bulwark.bulkhead." + METHOD + ".value";

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
          .overrideConfigKey(Capped.class.getName() + "/run/Bulkhead/distributed", "true")
          .overrideConfigKey(KEY, "ten")
          .assertException(
              failure ->
                  assertThat(failure)
                      .hasStackTraceContaining("on " + METHOD + ":")
                      .hasStackTraceContaining(
                          "from config key '" + KEY + "': 'ten' is not a whole number"));

  @Test
  void theStartFails() {
    Assertions.fail("Quarkus started with a bulkhead cap that is not a number");
  }
}
