package dev.bulwark.redis.modelcheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.redis.ModelCheckSeam;
import dev.bulwark.tck.modelcheck.Bounds;
import dev.bulwark.tck.modelcheck.Exploration;
import dev.bulwark.tck.modelcheck.Explorer;
import dev.bulwark.tck.modelcheck.Kind;
import dev.bulwark.tck.modelcheck.RandomRun;
import dev.bulwark.tck.modelcheck.Request;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Model-checks the bulkhead's and the read-write lock's hand-overs against the store's real scripts
 * on the real Redis, with a clock the check sets: every interleaving of acquire, poll, cancel,
 * release, renewal, clock steps, wake-ups delivered late or lost, a JVM's death and a lost reply
 * (re-sent or given up), up to a depth, with every invariant checked after every step and at the
 * end of every sequence. Then seeded random schedules beyond those bounds.
 *
 * <p>System properties: {@code bulwark-modelcheck.depth} (adds to every exploration's depth),
 * {@code bulwark-modelcheck.runs} and {@code bulwark-modelcheck.steps} (random schedules), {@code
 * bulwark-modelcheck.seed} (replays one schedule). The {@code model-check} profile sets larger
 * ones.
 */
class ModelCheckTest {

  private static final long LEASE = 30_000;
  private static final long TICK = LEASE * 3 / 5;
  private static final int EXTRA_DEPTH = Integer.getInteger("bulwark-modelcheck.depth", 0);
  private static final int RUNS = Integer.getInteger("bulwark-modelcheck.runs", 150);
  private static final int STEPS = Integer.getInteger("bulwark-modelcheck.steps", 60);
  private static final List<String> EVERY_ACTION =
      List.of(
          "acquire",
          "poll",
          "cancel",
          "release",
          "renew",
          "tick",
          "deliver",
          "drop",
          "die",
          "lose-acquire",
          "lose-poll",
          "lose-release",
          "resend",
          "giveuprequest",
          "keyexpires");

  /** What a batched exploration must have run besides every single action. */
  private static final List<String> BATCH_ACTIONS =
      List.of("batch", "losebatchreply", "resendbatch", "giveupbatch", "diemidbatch");

  /** What an exploration of batches in flight must have run besides every single action. */
  private static final List<String> IN_FLIGHT_ACTIONS =
      List.of(
          "sendbatch",
          "readbatchreply",
          "loseoldestbatchreply",
          "resetconnection",
          "resendbatch",
          "giveupbatch");

  private static final int BATCH_DEPTH = Integer.getInteger("bulwark-modelcheck.batch-depth", 5);

  private static final int IN_FLIGHT_DEPTH =
      Integer.getInteger("bulwark-modelcheck.in-flight-depth", 5);

  private ModelCheckSeam seam;

  @BeforeEach
  void open() {
    seam = new ModelCheckSeam();
  }

  @AfterEach
  void close() {
    seam.close();
  }

  @Test
  void bulkheadOfOneAcrossTwoJvms() {
    explore(
        new Bounds(
            "bulkhead, limit 1, 3 requests on 2 JVMs",
            Bounds.spread(3, 2, Kind.PERMIT),
            1,
            LEASE,
            TICK,
            2,
            1,
            1,
            6 + EXTRA_DEPTH));
  }

  @Test
  void bulkheadOfTwoAcrossThreeJvms() {
    explore(
        new Bounds(
            "bulkhead, limit 2, 4 requests on 3 JVMs",
            Bounds.spread(4, 3, Kind.PERMIT),
            2,
            LEASE,
            TICK,
            2,
            1,
            1,
            5 + EXTRA_DEPTH));
  }

  @Test
  void lockKeyWithWritersAndAReader() {
    explore(
        new Bounds(
            "lock key, writer, reader, writer on 2 JVMs",
            Bounds.spread(3, 2, Kind.WRITE, Kind.READ),
            1,
            LEASE,
            TICK,
            2,
            1,
            1,
            6 + EXTRA_DEPTH));
  }

  /**
   * The first JVM sends its two requests' operations as one batch, at most twice a sequence,
   * besides every single step: a batch answered, its reply lost (then re-sent whole or given up),
   * or its JVM dying once the store applied it.
   */
  @Test
  void batchedBulkheadOfOneAcrossTwoJvms() {
    explore(
        new Bounds(
            "batched bulkhead, limit 1, 3 requests on 2 JVMs",
            Bounds.spread(3, 2, Kind.PERMIT),
            1,
            LEASE,
            TICK,
            2,
            1,
            1,
            1,
            BATCH_DEPTH + EXTRA_DEPTH),
        BATCH_ACTIONS);
  }

  /**
   * A writer and a reader of the first JVM batched together, a reader of the second beside; one
   * step less deep than the bulkhead's, to keep the default build's time.
   */
  @Test
  void batchedLockKeyWithAWriterAndReaders() {
    explore(
        new Bounds(
            "batched lock key, writer and reader on one JVM, reader on another",
            List.of(
                new Request(0, Kind.WRITE), new Request(1, Kind.READ), new Request(0, Kind.READ)),
            1,
            LEASE,
            TICK,
            2,
            1,
            1,
            1,
            BATCH_DEPTH - 1 + EXTRA_DEPTH),
        BATCH_ACTIONS);
  }

  /**
   * Batches in flight: a JVM sends up to two batches (of one request or more) before it reads the
   * first reply, as the engine pipelines them on Redis; replies are read in order, the oldest may
   * be lost, or the connection reset with both in flight, each lost batch then re-sent or given up.
   */
  @Test
  void bulkheadOfOneWithBatchesInFlight() {
    explore(
        new Bounds(
            "bulkhead, limit 1, 3 requests on 2 JVMs, 2 batches in flight",
            Bounds.spread(3, 2, Kind.PERMIT),
            1,
            LEASE,
            TICK,
            2,
            1,
            1,
            2,
            2,
            IN_FLIGHT_DEPTH + EXTRA_DEPTH),
        IN_FLIGHT_ACTIONS);
  }

  @Test
  void randomBulkheadSchedulesBeyondTheBounds() {
    runRandomly(
        new Bounds(
            "random bulkhead, limit 2, 8 requests on 4 JVMs",
            Bounds.spread(8, 4, Kind.PERMIT),
            2,
            LEASE,
            TICK,
            8,
            2,
            3,
            6,
            0));
  }

  @Test
  void randomLockSchedulesBeyondTheBounds() {
    runRandomly(
        new Bounds(
            "random lock key, 7 requests on 3 JVMs",
            Bounds.spread(7, 3, Kind.WRITE, Kind.READ, Kind.READ),
            1,
            LEASE,
            TICK,
            8,
            2,
            3,
            6,
            0));
  }

  private void runRandomly(Bounds bounds) {
    RandomRun random = new RandomRun(bounds, new RedisStoreDriver(bounds, seam));
    assertThat(random.runSeeded(RUNS, STEPS)).isPositive();
  }

  private void explore(Bounds bounds) {
    explore(bounds, List.of());
  }

  private void explore(Bounds bounds, List<String> alsoRun) {
    Exploration explored = new Explorer(bounds, new RedisStoreDriver(bounds, seam)).explore();
    System.out.println("model check: " + explored);
    assertThat(explored.actionsRun()).containsKeys(EVERY_ACTION.toArray(String[]::new));
    if (!alsoRun.isEmpty()) {
      assertThat(explored.actionsRun()).containsKeys(alsoRun.toArray(String[]::new));
    }
    assertThat(explored.states()).isGreaterThan(500);
  }
}
