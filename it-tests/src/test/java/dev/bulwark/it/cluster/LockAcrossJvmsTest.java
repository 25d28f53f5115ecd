package dev.bulwark.it.cluster;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Issue 3, scenario 6: a keyed read-write lock shared by three worker JVMs on the Redis store. */
class LockAcrossJvmsTest {

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void writersAreAloneOnTheirKeyAndFencingTokensGrow() {
    try (ClusterRun run = new ClusterRun("lock")) {
      LockScenario.runAndCheck(run);
    }
  }
}
