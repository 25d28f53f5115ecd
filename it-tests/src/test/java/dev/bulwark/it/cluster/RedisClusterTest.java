package dev.bulwark.it.cluster;

import dev.bulwark.it.cluster.harness.ClusterRun;
import dev.bulwark.it.cluster.harness.KeptHistories;
import dev.bulwark.it.cluster.harness.RedisUnderTest;
import dev.bulwark.it.support.RedisClusterExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fair bulkhead ({@link FairBulkheadScenario}) and the read-write lock ({@link LockScenario})
 * on a Redis Cluster of three masters that the test starts on free ports ({@code
 * bulwark.redis.cluster-nodes}), so the store's keys and scripts must respect hash slots.
 */
@ExtendWith(KeptHistories.class)
class RedisClusterTest {

  @RegisterExtension static final RedisClusterExtension CLUSTER = new RedisClusterExtension();

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void fairBulkheadOnACluster() {
    try (ClusterRun run =
        new ClusterRun("cluster-bulkhead", RedisUnderTest.cluster(CLUSTER.cluster().nodeList()))) {
      FairBulkheadScenario.runAndCheck(run);
    }
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void readWriteLockOnACluster() {
    try (ClusterRun run =
        new ClusterRun("cluster-lock", RedisUnderTest.cluster(CLUSTER.cluster().nodeList()))) {
      LockScenario.runAndCheck(run);
    }
  }
}
