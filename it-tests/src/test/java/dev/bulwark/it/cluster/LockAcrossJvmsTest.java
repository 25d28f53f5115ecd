package dev.bulwark.it.cluster;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Issue 3, scenario 6: a keyed read-write lock shared by three worker JVMs on the Redis store. */
@ExtendWith(KeptHistories.class)
class LockAcrossJvmsTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.bulwark.it.cluster.Stores#shared")
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void writersAreAloneOnTheirKeyAndFencingTokensGrow(StoreUnderTest store) {
    try (ClusterRun run = new ClusterRun("lock", store)) {
      LockScenario.runAndCheck(run);
    }
  }
}
