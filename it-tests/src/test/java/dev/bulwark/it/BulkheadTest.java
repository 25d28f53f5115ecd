package dev.bulwark.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.DistributedBulkhead;
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
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code @DistributedBulkhead} on a bean in Weld, local store: limit, fail-fast and FIFO. */
@ExtendWith(ArquillianExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BulkheadTest {

  static final Duration WAIT = Duration.ofSeconds(5);

  @ApplicationScoped
  public static class Guarded {

    @DistributedBulkhead(value = 3)
    public void failFast(Room room, int id) {
      room.occupy(id);
    }

    @DistributedBulkhead(value = 3, waitingTime = 2, waitingTimeUnit = ChronoUnit.SECONDS)
    public void queued(Room room, int id) {
      room.occupy(id);
    }

    @DistributedBulkhead(value = 1, waitingTime = 300)
    public void shortWait(Room room, int id) {
      room.occupy(id);
    }
  }

  @Deployment
  static JavaArchive deployment() {
    return Deployments.bulwark("bulkhead", Guarded.class, Room.class);
  }

  @Inject Guarded guarded;

  @Test
  void threeOfTenEnterAndSevenAreRejectedAtOnce() throws Exception {
    Room room = new Room("failFast");
    CyclicBarrier start = new CyclicBarrier(10);
    try (Callers callers = new Callers("failFast")) {
      List<Caller<Void>> all = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        int id = i;
        all.add(
            callers.run(
                () -> {
                  start.await(5, TimeUnit.SECONDS);
                  guarded.failFast(room, id);
                }));
      }
      try {
        room.awaitEntered(3, WAIT);
        // the 7 others end on their own, without anyone leaving the bulkhead
        List<Integer> inside = room.entryOrder();
        List<Caller<Void>> rejected = new ArrayList<>();
        for (int id = 0; id < all.size(); id++) {
          if (!inside.contains(id)) {
            rejected.add(all.get(id));
          }
        }
        assertThat(rejected).hasSize(7);
        for (Caller<Void> caller : rejected) {
          Throwable failure = caller.failure(WAIT);
          assertThat(failure)
              .isInstanceOf(BulkheadFullException.class)
              .isInstanceOf(BulkheadException.class);
          assertThat(((BulkheadFullException) failure).getLimitName())
              .isEqualTo(Guarded.class.getName() + "#failFast");
          assertThat(caller.elapsed()).isLessThan(Duration.ofSeconds(1));
        }
        assertThat(room.inside()).isEqualTo(3);
        assertThat(room.entered()).isEqualTo(3);
      } finally {
        room.releaseAll();
      }
      callers.awaitAll(WAIT);
      assertThat(room.maxInside()).isEqualTo(3);
    }

    // the three permits came back: a later caller enters at once
    Room after = new Room("failFast-after");
    after.releaseAll();
    guarded.failFast(after, 99);
    assertThat(after.entryOrder()).containsExactly(99);
  }

  @Test
  void waitingCallersAllCompleteInArrivalOrderNeverMoreThanThreeInside() throws Exception {
    Room room = new Room("queued");
    try (Callers callers = new Callers("queued")) {
      List<Caller<Void>> all = new ArrayList<>();
      try {
        // three holders, each known to be inside before the next one starts
        for (int id = 0; id < 3; id++) {
          int caller = id;
          all.add(callers.run(() -> guarded.queued(room, caller)));
          room.awaitEntered(id + 1, WAIT);
        }
        // seven waiters, each known to be parked in the bulkhead before the next one starts
        for (int id = 3; id < 10; id++) {
          int caller = id;
          Caller<Void> waiter = callers.run(() -> guarded.queued(room, caller));
          all.add(waiter);
          waiter.awaitParked(Duration.ofMillis(20), WAIT);
          assertThat(room.entered()).as("entered while the bulkhead is full").isEqualTo(3);
        }
        // free one permit at a time: exactly the next waiter in arrival order enters
        for (int id = 0; id < 10; id++) {
          room.release(id);
          if (id + 3 < 10) {
            room.awaitEntered(id + 4, WAIT);
            assertThat(room.inside()).isLessThanOrEqualTo(3);
          }
        }
      } finally {
        room.releaseAll();
      }
      for (Caller<Void> caller : all) {
        caller.result(WAIT);
      }
    }

    assertThat(room.entryOrder()).containsExactlyElementsOf(ids(10));
    assertThat(room.maxInside()).isEqualTo(3);
    assertThat(room.visits()).hasSize(10);
    // at every entry, at most two other visits were open
    for (Room.Visit visit : room.visits()) {
      long openAtEntry =
          room.visits().stream()
              .filter(v -> v.enterSeq() < visit.enterSeq() && v.exitSeq() > visit.enterSeq())
              .count();
      assertThat(openAtEntry).as("others inside when %s entered", visit.id()).isLessThan(3);
    }
  }

  @Test
  void aWaiterGivesUpAfterItsWaitingTime() throws Exception {
    Room room = new Room("shortWait");
    try (Callers callers = new Callers("shortWait")) {
      try {
        Caller<Void> holder = callers.run(() -> guarded.shortWait(room, 0));
        room.awaitEntered(1, WAIT);
        Caller<Void> waiter = callers.run(() -> guarded.shortWait(room, 1));

        Throwable failure = waiter.failure(WAIT);

        assertThat(failure).isInstanceOf(BulkheadFullException.class);
        assertThat(waiter.elapsed())
            .isGreaterThanOrEqualTo(Duration.ofMillis(290))
            .isLessThan(Duration.ofMillis(1500));
        assertThat(room.entryOrder()).containsExactly(0);
        assertThat(holder.isDone()).isFalse();
      } finally {
        room.releaseAll();
      }
      callers.awaitAll(WAIT);
    }
  }

  private static List<Integer> ids(int count) {
    return IntStream.range(0, count).boxed().collect(Collectors.toList());
  }
}
