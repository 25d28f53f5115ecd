package dev.bulwark.core.batch;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck checks that a lane's answers are linearizable against the sequential store it sends to
 * (see {@link LaneUnderCheck}): whatever batches the lane makes, every result is one that the
 * operations applied one at a time, each at some instant within its call, would give.
 */
@Timeout(600)
class LaneLinearizabilityTest {

  @Test
  void stress() {
    new StressOptions()
        .sequentialSpecification(LaneUnderCheck.Sequential.class)
        .threads(3)
        .actorsPerThread(3)
        .iterations(30)
        .invocationsPerIteration(300)
        .check(StressedLane.class);
  }

  @Test
  void stressWithSeveralBatchesInFlight() {
    new StressOptions()
        .sequentialSpecification(LaneUnderCheck.Sequential.class)
        .threads(3)
        .actorsPerThread(3)
        .iterations(10)
        .invocationsPerIteration(300)
        .check(PipelinedLane.class);
  }

  @Test
  void modelChecking() {
    new ModelCheckingOptions()
        .sequentialSpecification(LaneUnderCheck.Sequential.class)
        .threads(3)
        .actorsPerThread(2)
        .iterations(4)
        .invocationsPerIteration(60)
        .check(ModelCheckedLane.class);
  }
}
