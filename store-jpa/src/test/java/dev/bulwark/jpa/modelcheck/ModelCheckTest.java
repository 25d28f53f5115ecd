package dev.bulwark.jpa.modelcheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.jpa.ModelCheckDatabase;
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
 * Model-checks the bulkhead's and the read-write lock's hand-overs against the JPA store's real
 * transactions on the PostgreSQL test server, with a database clock the check sets: every
 * interleaving of acquire, poll, cancel, release, renewal (also racing another JVM's step, between
 * its read and its write), clock steps, a JVM's look for hand-overs marked for it, listener calls
 * acted on late or lost, the cleanup task, a JVM's death and a lost reply, up to a depth, with
 * every invariant checked after every step and at the end of every sequence ({@code
 * dev.bulwark.tck.modelcheck}). Then seeded random schedules beyond those bounds.
 *
 * <p>A step here is a database transaction, several times slower than a Redis script call, so the
 * default depth is 4 for every exploration, two less than the Redis store's deepest. System
 * properties: {@code bulwark-modelcheck.depth} (adds to every exploration's depth), {@code
 * bulwark-modelcheck.runs} and {@code bulwark-modelcheck.steps} (random schedules), {@code
 * bulwark-modelcheck.seed} (replays one schedule). The {@code model-check} profile sets larger
 * ones.
 */
class ModelCheckTest {

  private static final long LEASE = 30_000;
  private static final long TICK = LEASE * 3 / 5;
  private static final int EXTRA_DEPTH = Integer.getInteger("bulwark-modelcheck.depth", 0);
  private static final int RUNS = Integer.getInteger("bulwark-modelcheck.runs", 100);
  private static final int STEPS = Integer.getInteger("bulwark-modelcheck.steps", 60);
  private static final List<String> EVERY_ACTION =
      List.of(
          "acquire",
          "poll",
          "cancel",
          "release",
          "renew",
          "renewduring",
          "tick",
          "deliver",
          "drop",
          "die",
          "lose-acquire",
          "lose-poll",
          "lose-release",
          "giveuprequest",
          "cleanup",
          "look for hand-overs");

  /** What a batched exploration must have run besides every single action. */
  private static final List<String> BATCH_ACTIONS =
      List.of("batch", "losebatchreply", "resendbatch", "giveupbatch", "diemidbatch");

  private static final int BATCH_DEPTH = Integer.getInteger("bulwark-modelcheck.batch-depth", 3);

  private ModelCheckDatabase database;

  @BeforeEach
  void open() {
    database = new ModelCheckDatabase();
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void bulkheadOfOneAcrossTwoJvms() {
    explore(
        new Bounds(
            "JPA bulkhead, limit 1, 3 requests on 2 JVMs",
            Bounds.spread(3, 2, Kind.PERMIT),
            1,
            LEASE,
            TICK,
            2,
            1,
            1,
            4 + EXTRA_DEPTH));
  }

  @Test
  void bulkheadOfTwoAcrossThreeJvms() {
    explore(
        new Bounds(
            "JPA bulkhead, limit 2, 4 requests on 3 JVMs",
            Bounds.spread(4, 3, Kind.PERMIT),
            2,
            LEASE,
            TICK,
            2,
            1,
            1,
            4 + EXTRA_DEPTH),
        // a hand-over needs 4 steps here (two take the permits, one queues, one frees a permit),
        // so telling it takes a fifth: the model-check profile's depth
        EXTRA_DEPTH > 0 ? List.of() : List.of("deliver", "drop", "look for hand-overs"));
  }

  /**
   * Two readers and a writer, unlike the Redis store's two writers and a reader (which, with one
   * reader, explores as the bulkhead of one does here): the readers, one per JVM, share the key,
   * the writer queues behind them, and a reader arriving after the queued writer waits behind it.
   */
  @Test
  void lockKeyWithReadersAndAWriter() {
    explore(
        new Bounds(
            "JPA lock key, reader, reader, writer on 2 JVMs",
            List.of(
                new Request(0, Kind.READ), new Request(1, Kind.READ), new Request(0, Kind.WRITE)),
            1,
            LEASE,
            TICK,
            2,
            1,
            1,
            4 + EXTRA_DEPTH));
  }

  /**
   * The first JVM sends its two requests' operations as one batch, at most once a sequence, besides
   * every single step: a batch answered, its reply lost (then re-sent whole or given up), or its
   * JVM dying once the store applied it. Every transaction is slow here, so the depth is 3 (a batch
   * and what follows its loss, or a batch between others' steps); the random schedules batch
   * further.
   */
  @Test
  void batchedBulkheadOfOneAcrossTwoJvms() {
    explore(
        new Bounds(
            "JPA batched bulkhead, limit 1, 3 requests on 2 JVMs",
            Bounds.spread(3, 2, Kind.PERMIT),
            1,
            LEASE,
            TICK,
            2,
            1,
            1,
            1,
            BATCH_DEPTH + EXTRA_DEPTH),
        // a row's lease runs out after two ticks, a hand-over to another JVM after two acquires
        // and a release: both lie beyond depth 3
        EXTRA_DEPTH > 1 ? List.of() : List.of("cleanup", "look for hand-overs"),
        BATCH_ACTIONS);
  }

  @Test
  void randomBulkheadSchedulesBeyondTheBounds() {
    runRandomly(
        new Bounds(
            "JPA random bulkhead, limit 2, 8 requests on 4 JVMs",
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
            "JPA random lock key, 7 requests on 3 JVMs",
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
    try (JpaStoreDriver store = new JpaStoreDriver(bounds, database)) {
      assertThat(new RandomRun(bounds, store).runSeeded(RUNS, STEPS)).isPositive();
    }
  }

  private void explore(Bounds bounds) {
    explore(bounds, List.of(), List.of());
  }

  private void explore(Bounds bounds, List<String> beyondTheDepth) {
    explore(bounds, beyondTheDepth, List.of());
  }

  private void explore(Bounds bounds, List<String> beyondTheDepth, List<String> alsoRun) {
    Exploration explored;
    try (JpaStoreDriver store = new JpaStoreDriver(bounds, database)) {
      explored = new Explorer(bounds, store).explore();
    }
    System.out.println("model check: " + explored);
    assertThat(explored.actionsRun())
        .containsKeys(
            EVERY_ACTION.stream().filter(a -> !beyondTheDepth.contains(a)).toArray(String[]::new));
    if (!alsoRun.isEmpty()) {
      assertThat(explored.actionsRun()).containsKeys(alsoRun.toArray(String[]::new));
    }
    assertThat(explored.states()).isGreaterThan(500);
  }
}
