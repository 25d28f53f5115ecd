package dev.bulwark.quarkus.deployment.buildfailure;

import static org.junit.jupiter.api.Assertions.fail;

import dev.bulwark.DistributedBulkhead;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One name is one limit: two methods cannot give it different literal values. */
class ConflictingLiteralsTest {

  @RegisterExtension
  static final QuarkusUnitTest BUILD =
      BuildFailure.expect(
          List.of(Partners.class),
          "Invalid @DistributedBulkhead 'partner-api': declared with different values",
          Partners.class.getName() + "#quote (value=2",
          Partners.class.getName() + "#order (value=3");

  @Test
  void buildFails() {
    fail("the build must fail for one name with two values");
  }

  @ApplicationScoped
  public static class Partners {
    @DistributedBulkhead(name = "partner-api", value = 2)
    public void quote() {}

    @DistributedBulkhead(name = "partner-api", value = 3)
    public void order() {}
  }
}
