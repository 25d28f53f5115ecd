package dev.bulwark.it.cluster;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.StoreUnderTest;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A keyed read-write lock shared by three worker JVMs, on every shared store (Redis, the JPA store
 * on PostgreSQL and on MariaDB) and on the JPA store through a persistence unit whose database
 * defaults to REPEATABLE READ: a writer never beside anyone on its key, fencing tokens growing.
 */
@ExtendWith(KeptHistories.class)
class LockAcrossJvmsTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource({
    "dev.bulwark.it.cluster.harness.Stores#shared",
    "dev.bulwark.it.cluster.harness.Stores#repeatableReadUnit"
  })
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void writersAreAloneOnTheirKeyAndFencingTokensGrow(StoreUnderTest store) {
    try (ClusterRun run = new ClusterRun("lock", store)) {
      LockScenario.runAndCheck(run);
    }
  }
}
