package dev.bulwark.quarkus.deployment.buildfailure;

import static org.junit.jupiter.api.Assertions.fail;

import dev.bulwark.DistributedBulkhead;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class NonPositiveLiteralTest {

  @RegisterExtension
  static final QuarkusUnitTest BUILD =
      BuildFailure.expect(
          List.of(ZeroBulkhead.class),
          ZeroBulkhead.class.getName() + "#call",
          "member 'value'",
          "0 must be greater than 0");

  @Test
  void buildFails() {
    fail("the build must fail for a bulkhead of 0");
  }

  @ApplicationScoped
  public static class ZeroBulkhead {
    @DistributedBulkhead(value = 0)
    public void call() {}
  }
}
