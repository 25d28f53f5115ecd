package dev.bulwark.redis.modelcheck;

import static org.assertj.core.api.Assertions.assertThatCode;

import dev.bulwark.redis.ModelCheckSeam;
import dev.bulwark.tck.modelcheck.Action;
import dev.bulwark.tck.modelcheck.Bounds;
import dev.bulwark.tck.modelcheck.Caller;
import dev.bulwark.tck.modelcheck.ExploredState;
import dev.bulwark.tck.modelcheck.Explorer;
import dev.bulwark.tck.modelcheck.Kind;
import dev.bulwark.tck.modelcheck.ModelState;
import dev.bulwark.tck.modelcheck.Stepper;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sequences the model check found that broke an invariant, replayed step by step against the real
 * scripts, so each fault stays fixed even if the exploration's bounds change.
 */
class ReplayedFaultsTest {

  private static final long LEASE = 30_000;

  private ModelCheckSeam seam;

  @BeforeEach
  void open() {
    seam = new ModelCheckSeam();
  }

  @AfterEach
  void close() {
    seam.close();
  }

  /**
   * Request 2's acquire queues it but its reply is lost. The queue entry is handed the permit (a
   * wake-up goes out) and, not yet renewed (its caller still waits for the reply), runs out with
   * its lease; request 3, queued meanwhile, gets the permit. The acquire is then re-sent more than
   * a lease after it first ran: the store queues request 2 afresh, and the old wake-up, arriving
   * now, told its caller it held; its renewals succeeded (renew extends a queued entry as it does a
   * held one), so two callers held a bulkhead of one. The notice comes more than half a lease after
   * the acquire first ran, so the caller no longer takes it as a grant: it polls.
   */
  @Test
  void aReSentAcquireMoreThanALeaseLateMeetsAStaleWakeUp() {
    Bounds bounds =
        new Bounds(
            "re-sent acquire, stale wake-up",
            Bounds.spread(3, 2, Kind.PERMIT),
            1,
            LEASE,
            LEASE * 3 / 5,
            2,
            0,
            1,
            10);
    List<Action> sequence =
        List.of(
            new Action.Acquire(0),
            new Action.LoseReply(1, Caller.Operation.ACQUIRE),
            new Action.Release(0),
            new Action.Tick(bounds.tickMillis()),
            new Action.Acquire(2),
            new Action.Tick(bounds.tickMillis()),
            new Action.Resend(1),
            new Action.Deliver(1),
            new Action.Deliver(0),
            new Action.Renew(1));
    assertThatCode(() -> replay(bounds, sequence)).doesNotThrowAnyException();
  }

  private void replay(Bounds bounds, List<Action> sequence) {
    Stepper stepper = new Stepper(bounds, new RedisStoreDriver(bounds, seam));
    ExploredState at =
        new ExploredState(
            ModelState.initial(bounds, Explorer.START_MILLIS), RedisStoreContents.EMPTY);
    stepper.restore(at);
    for (Action action : sequence) {
      at = stepper.step(at, action);
    }
  }
}
