package dev.bulwark.quarkus.deployment.buildfailure;

import static org.junit.jupiter.api.Assertions.fail;

import dev.bulwark.DistributedBulkhead;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A {@code Future} ends out of Bulwark's sight: the permit would go back while the work runs. */
class UnholdableReturnTypeTest {

  @RegisterExtension
  static final QuarkusUnitTest BUILD =
      BuildFailure.expect(
          List.of(Reports.class),
          "Invalid @DistributedBulkhead on " + Reports.class.getName() + "#render",
          "return type java.util.concurrent.Future cannot be held to completion");

  @Test
  void buildFails() {
    fail("the build must fail for a guarded method returning Future");
  }

  @ApplicationScoped
  public static class Reports {
    @DistributedBulkhead(name = "reports", value = 2)
    public Future<String> render() {
      FutureTask<String> task = new FutureTask<>(() -> "report");
      new Thread(task).start();
      return task;
    }
  }
}
