package dev.bulwark.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedLock;
import dev.bulwark.LockContext;
import dev.bulwark.LockKey;
import dev.bulwark.LockMode;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.it.support.Callers;
import dev.bulwark.it.support.Callers.Caller;
import dev.bulwark.it.support.Deployments;
import dev.bulwark.it.support.Room;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @DistributedLock} on a bean in Weld, local store: shared readers, an exclusive writer,
 * independent keys and fencing tokens, shown by recorded intervals and tokens.
 */
@ExtendWith(ArquillianExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LockTest {

  static final Duration WAIT = Duration.ofSeconds(5);

  /** One lock name (the class's) for both methods, keyed by the {@code @LockKey} argument. */
  @ApplicationScoped
  public static class Accounts {

    @DistributedLock(mode = LockMode.READ)
    public long read(@LockKey String account, Room room, int id) {
      long token = LockContext.fencingToken();
      room.occupy(id);
      return token;
    }

    @DistributedLock(mode = LockMode.WRITE)
    public long write(@LockKey String account, Room room, int id) {
      long token = LockContext.fencingToken();
      room.occupy(id);
      return token;
    }

    /** Readers that meet at a barrier: it only opens when all of them are inside at once. */
    @DistributedLock(mode = LockMode.READ)
    public void readTogether(@LockKey String account, Room room, int id, CyclicBarrier meet)
        throws InterruptedException, BrokenBarrierException, TimeoutException {
      room.enter(id);
      try {
        meet.await(5, TimeUnit.SECONDS);
      } finally {
        room.exit(id);
      }
      room.occupy(100 + id);
    }

    @DistributedLock(name = "short-wait", waitingTime = 300, waitingTimeUnit = ChronoUnit.MILLIS)
    public void writeBriefly(@LockKey String account, Room room, int id) {
      room.occupy(id);
    }
  }

  @Deployment
  static JavaArchive deployment() {
    return Deployments.bulwark("lock", Accounts.class, Room.class);
  }

  @Inject Accounts accounts;

  @Test
  void fourReadersShareTheKeyAndAWriterWaitsForThemAndExcludesThem() throws Exception {
    Room readers = new Room("readers");
    Room writer = new Room("writer");
    CyclicBarrier allFourInside = new CyclicBarrier(4);
    try (Callers callers = new Callers("rw")) {
      List<Caller<Void>> readerCalls = new ArrayList<>();
      Caller<Long> writerCall;
      Caller<Void> lateReader;
      try {
        for (int id = 0; id < 4; id++) {
          int reader = id;
          readerCalls.add(
              callers.run(() -> accounts.readTogether("a", readers, reader, allFourInside)));
        }
        // all four passed the barrier, so all four held the read lock at once; they stay inside
        readers.awaitExited(4, WAIT);
        readers.awaitEntered(8, WAIT);
        assertThat(readers.inside()).isEqualTo(4);

        writerCall = callers.start(() -> accounts.write("a", writer, 0));
        writerCall.awaitParked(Duration.ofMillis(20), WAIT);
        assertThat(writer.entered()).as("writer entered beside readers").isZero();

        // a reader arriving after the queued writer waits too (first come, first served)
        lateReader = callers.run(() -> accounts.read("a", readers, 200));
        lateReader.awaitParked(Duration.ofMillis(20), WAIT);

        for (int id = 0; id < 4; id++) {
          readers.release(100 + id);
        }
        writer.awaitEntered(1, WAIT);
        assertThat(readers.inside()).as("readers inside beside the writer").isZero();
        lateReader.awaitParked(Duration.ofMillis(20), WAIT);
        writer.release(0);
        readers.awaitEntered(9, WAIT);
      } finally {
        readers.releaseAll();
        writer.releaseAll();
      }
      for (Caller<Void> reader : readerCalls) {
        reader.result(WAIT);
      }
      writerCall.result(WAIT);
      lateReader.result(WAIT);
    }

    assertThat(readers.maxInside()).isEqualTo(4);
    Room.Visit write = writer.visits().get(0);
    for (Room.Visit read : readers.visits()) {
      assertThat(read.overlaps(write)).as("reader %s overlaps writer %s", read, write).isFalse();
    }
    Room.Visit late = readers.visits().stream().filter(v -> v.id() == 200).findFirst().get();
    assertThat(late.enterSeq()).isGreaterThan(write.exitSeq());
  }

  @Test
  void keyBIsNeverBlockedByKeyA() throws Exception {
    Room roomA = new Room("a");
    Room roomB = new Room("b");
    try (Callers callers = new Callers("keys")) {
      Caller<Long> writerA;
      try {
        writerA = callers.start(() -> accounts.write("a", roomA, 0));
        roomA.awaitEntered(1, WAIT);

        roomB.releaseAll();
        Caller<Long> writerB = callers.start(() -> accounts.write("b", roomB, 1));
        Caller<Long> readerB = callers.start(() -> accounts.read("b", roomB, 2));
        writerB.result(WAIT);
        readerB.result(WAIT);

        assertThat(roomA.inside()).as("writer of a still inside").isEqualTo(1);
        assertThat(writerA.isDone()).isFalse();
      } finally {
        roomA.releaseAll();
        roomB.releaseAll();
      }
      writerA.result(WAIT);
    }
    Room.Visit a = roomA.visits().get(0);
    assertThat(roomB.visits()).hasSize(2).allSatisfy(b -> assertThat(b.overlaps(a)).isTrue());
  }

  @Test
  void fencingTokensOfSuccessiveWritesStrictlyIncrease() throws Exception {
    Room room = new Room("fencing");
    room.releaseAll();
    List<Long> sequential = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      sequential.add(accounts.write("fenced", room, i));
    }
    assertThat(sequential).isSorted().doesNotHaveDuplicates();
    assertThat(sequential.get(0)).isPositive();

    // a reader sees the token of the last write grant
    assertThat(accounts.read("fenced", room, 10)).isEqualTo(sequential.get(4));

    // concurrent writers: tokens follow the order in which they were granted
    Room contended = new Room("contended");
    contended.releaseAll();
    List<Caller<Long>> writers = new ArrayList<>();
    try (Callers callers = new Callers("fencing")) {
      for (int i = 0; i < 6; i++) {
        int id = i;
        writers.add(callers.start(() -> accounts.write("fenced", contended, id)));
      }
      callers.awaitAll(WAIT);
    }
    List<Long> inGrantOrder = new ArrayList<>();
    for (int id : contended.entryOrder()) {
      inGrantOrder.add(writers.get(id).result(WAIT));
    }
    assertThat(inGrantOrder).hasSize(6).isSorted().doesNotHaveDuplicates();
    assertThat(inGrantOrder.get(0)).isGreaterThan(sequential.get(4));
    assertThat(contended.maxInside()).isEqualTo(1);

    // another key counts on its own, but never goes backwards either
    long other1 = accounts.write("fenced-other", room, 20);
    long other2 = accounts.write("fenced-other", room, 21);
    assertThat(other2).isGreaterThan(other1);
  }

  @Test
  void aWriterGivesUpWithLockTimeoutExceptionNamingTheKey() throws Exception {
    Room room = new Room("timeout");
    try (Callers callers = new Callers("timeout")) {
      try {
        callers.run(() -> accounts.writeBriefly("k1", room, 0));
        room.awaitEntered(1, WAIT);
        Caller<Void> waiter = callers.run(() -> accounts.writeBriefly("k1", room, 1));

        Throwable failure = waiter.failure(WAIT);

        assertThat(failure)
            .isInstanceOf(LockTimeoutException.class)
            .isInstanceOf(FaultToleranceException.class);
        LockTimeoutException timeout = (LockTimeoutException) failure;
        assertThat(timeout.getLimitName()).isEqualTo("short-wait");
        assertThat(timeout.getLockKey()).isEqualTo("k1");
        assertThat(timeout.getMessage()).contains("short-wait").contains("k1");
        assertThat(waiter.elapsed())
            .isGreaterThanOrEqualTo(Duration.ofMillis(290))
            .isLessThan(Duration.ofMillis(1500));
        assertThat(room.entryOrder()).containsExactly(0);
      } finally {
        room.releaseAll();
      }
      callers.awaitAll(WAIT);
    }
  }
}
