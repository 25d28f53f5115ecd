package dev.bulwark.quarkus.deployment.buildfailure;

import static org.junit.jupiter.api.Assertions.fail;

import dev.bulwark.DistributedRateLimit;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class BadNameTest {

  @RegisterExtension
  static final QuarkusUnitTest BUILD =
      BuildFailure.expect(
          List.of(SpacedName.class),
          "@DistributedRateLimit on " + SpacedName.class.getName() + "#call",
          "member 'name' = 'partner api'");

  @Test
  void buildFails() {
    fail("the build must fail for a name with a space");
  }

  @ApplicationScoped
  public static class SpacedName {
    @DistributedRateLimit(name = "partner api", value = 5)
    public void call() {}
  }
}
