package dev.bulwark.quarkus.deployment.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A {@code bulwark.*} key that nothing reads stops the start, named by Quarkus. */
class UnknownKeyTest {

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .overrideConfigKey("bulwark.stroe", "redis")
          .assertException(
              failure ->
                  assertThat(StartFailure.messages(failure))
                      .contains("bulwark.stroe")
                      .contains("does not map to any root"));

  @Test
  void startFails() {
    fail("the start must fail for bulwark.stroe");
  }
}
