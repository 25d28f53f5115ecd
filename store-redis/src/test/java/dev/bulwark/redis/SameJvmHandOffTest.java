package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.redis.RecordingStore.Wake;
import dev.bulwark.redis.client.RedisOutageGate;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A batch that hands a permit or lock to a waiter of its own JVM tells that JVM's listener from its
 * reply: the "JVMs" here have no wake-up subscription at all, so whatever their listener hears came
 * with a batch's reply. The store still decides who is next: a remote waiter ahead in the queue is
 * served first, and its hand-over is not in this JVM's reply.
 */
@ExtendWith(RedisExtension.class)
class SameJvmHandOffTest {

  private static final PermitSpec ONE = new PermitSpec("pool", 1, 60_000);
  private static final LockSpec LOCK = new LockSpec("accounts", 60_000);

  /** One "JVM" of the store's permits and locks, without a subscription; its listener records. */
  private record Jvm(RedisPermits permits, RedisLocks locks, List<Wake> heard) {

    static Jvm open(TestRedis test, String instance) {
      List<Wake> heard = new CopyOnWriteArrayList<>();
      RedisCalls calls =
          new RedisCalls(
              test.redis(),
              new RedisOutageGate("hand-off " + instance, Duration.ofSeconds(1), () -> {}),
              instance,
              "5ec2e7".repeat(5) + "00");
      return new Jvm(
          new RedisPermits(calls, test.keys(), (id, token) -> heard.add(new Wake(id, token))),
          new RedisLocks(calls, test.keys(), (id, token) -> heard.add(new Wake(id, token)), null),
          heard);
    }
  }

  @Test
  void aReleaseInABatchWakesTheNextWaiterOfItsJvmFromTheReply(TestRedis test) {
    Jvm here = Jvm.open(test, "00000000000000a1");
    Jvm there = Jvm.open(test, "00000000000000b2");
    assertThat(here.permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(there.permits().acquire(ONE, 1, true)).isEqualTo(Grant.QUEUED);
    assertThat(here.permits().acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);
    assertThat(here.permits().acquire(ONE, 3, true)).isEqualTo(Grant.QUEUED);

    // the remote waiter is ahead: the permit goes there, and nothing is told here
    assertThat(here.permits().apply(ONE, List.of(Operation.release("", 1))))
        .containsExactly(Grant.GRANTED);
    assertThat(here.heard()).isEmpty();
    assertThat(there.permits().poll(ONE, 1)).isEqualTo(Grant.GRANTED);

    // the remote holder releases: request 2 of this JVM is served, but by another JVM's batch
    assertThat(there.permits().apply(ONE, List.of(Operation.release("", 1))))
        .containsExactly(Grant.GRANTED);
    assertThat(there.heard()).isEmpty();
    assertThat(here.heard()).as("told only by its notice, which nobody here listens to").isEmpty();

    // this JVM's batch hands its permit to its own next waiter, in the same step
    assertThat(
            here.permits()
                .apply(ONE, List.of(Operation.release("", 2), Operation.acquire(4, false))))
        .containsExactly(Grant.GRANTED, Grant.REJECTED);
    assertThat(here.heard()).containsExactly(new Wake(3, 0));
    assertThat(here.permits().poll(ONE, 3)).isEqualTo(Grant.GRANTED);
  }

  @Test
  void aLockHandOffCarriesItsFencingToken(TestRedis test) {
    Jvm here = Jvm.open(test, "00000000000000a1");
    Grant writer = here.locks().acquire(LOCK, "k", LockMode.WRITE, 1, true);
    assertThat(writer.isGranted()).isTrue();
    assertThat(here.locks().acquire(LOCK, "k", LockMode.WRITE, 2, true)).isEqualTo(Grant.QUEUED);
    assertThat(here.locks().acquire(LOCK, "k", LockMode.READ, 3, true)).isEqualTo(Grant.QUEUED);

    List<Grant> answers =
        here.locks()
            .apply(
                LOCK,
                List.of(
                    Operation.release("k", 1),
                    Operation.poll("k", 2),
                    Operation.release("k", 2),
                    Operation.poll("k", 3)));

    assertThat(answers.get(0)).isEqualTo(Grant.GRANTED);
    assertThat(answers.get(1).isGranted()).as("the writer behind was handed the lock").isTrue();
    assertThat(answers.get(1).fencingToken()).isGreaterThan(writer.fencingToken());
    assertThat(answers.get(2)).isEqualTo(Grant.GRANTED);
    assertThat(answers.get(3).isGranted()).as("then the reader behind it").isTrue();
    assertThat(here.heard())
        .containsExactly(
            new Wake(2, answers.get(1).fencingToken()), new Wake(3, answers.get(3).fencingToken()));
  }
}
