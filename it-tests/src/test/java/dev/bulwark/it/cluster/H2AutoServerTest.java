package dev.bulwark.it.cluster;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.JpaUnderTest;
import dev.bulwark.it.cluster.harness.KeptHistories;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The JPA store on an H2 file in the run's folder, opened with {@code AUTO_SERVER=TRUE}: three
 * worker JVMs of one host share it through the TCP server H2 starts in the first process that opens
 * the file (here the test JVM, for the whole run). The fair bulkhead and the read-write lock must
 * hold as on a database server.
 */
@ExtendWith(KeptHistories.class)
class H2AutoServerTest {

  private static final int WORKERS = 3;

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void waitingCallersNeverOvershootAndAreServedInArrivalOrder() {
    try (ClusterRun run = new ClusterRun("bulkhead-fifo", JpaUnderTest.h2AutoServer())) {
      FairBulkheadScenario.runAndCheck(run, WORKERS);
    }
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void writersAreAloneOnTheirKeyAndFencingTokensGrow() {
    try (ClusterRun run = new ClusterRun("lock", JpaUnderTest.h2AutoServer())) {
      LockScenario.runAndCheck(run);
    }
  }
}
