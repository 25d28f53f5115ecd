package dev.bulwark.core.batch;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck checks that a batch queue's answers are linearizable against the sequential store it
 * sends to (see {@link BatchQueueUnderCheck}): whatever batches the batch queue makes, every result
 * is one that the operations applied one at a time, each at some instant within its call, would
 * give.
 */
@Timeout(600)
class BatchQueueLinearizabilityTest {

  @Test
  void stress() {
    new StressOptions()
        .sequentialSpecification(BatchQueueUnderCheck.Sequential.class)
        .threads(3)
        .actorsPerThread(3)
        .iterations(30)
        .invocationsPerIteration(300)
        .check(StressedBatchQueue.class);
  }

  @Test
  void stressWithSeveralBatchesInFlight() {
    new StressOptions()
        .sequentialSpecification(BatchQueueUnderCheck.Sequential.class)
        .threads(3)
        .actorsPerThread(3)
        .iterations(10)
        .invocationsPerIteration(300)
        .check(PipelinedBatchQueue.class);
  }

  @Test
  void modelChecking() {
    new ModelCheckingOptions()
        .sequentialSpecification(BatchQueueUnderCheck.Sequential.class)
        .threads(3)
        .actorsPerThread(2)
        .iterations(4)
        .invocationsPerIteration(60)
        .check(ModelCheckedBatchQueue.class);
  }
}
