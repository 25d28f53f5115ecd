package dev.bulwark.core.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HolderSetTest {

  @Test
  void anIdIsRemovedOnceAndAnIdNeverAddedIsNotFound() {
    HolderSet holders = new HolderSet(2);
    holders.add(7, 2, 70);
    holders.add(8, 2, 80);
    assertThat(holders.remove(9)).isFalse();
    assertThat(holders.remove(7)).isTrue();
    assertThat(holders.remove(7)).as("a second release").isFalse();
    assertThat(holders.remove(8)).isTrue();
  }

  @Test
  void eachHolderIsShownWithItsGrantTimeAndAFreedSlotWithTheNextHoldersTime() {
    HolderSet holders = new HolderSet(2);
    holders.add(7, 2, 70);
    holders.add(8, 2, 80);
    assertThat(holders.holders(99))
        .containsExactlyInAnyOrder(new HolderSet.Held(7, 70), new HolderSet.Held(8, 80));
    assertThat(holders.remove(7)).isTrue();
    holders.add(9, 2, 90);
    assertThat(holders.holders(99))
        .containsExactlyInAnyOrder(new HolderSet.Held(8, 80), new HolderSet.Held(9, 90));

    HolderSet grown = new HolderSet(1);
    grown.add(1, 1, 10);
    grown.add(2, 2, 20);
    assertThat(grown.holders(99))
        .containsExactlyInAnyOrder(new HolderSet.Held(1, 10), new HolderSet.Held(2, 20));
    assertThat(grown.remove(2)).isTrue();
    assertThat(grown.holders(99)).containsExactly(new HolderSet.Held(1, 10));
  }

  @Test
  void aLimitAboveTheSlotsAndOneThatGrewUseTheSet() {
    HolderSet large = new HolderSet(HolderSet.MAX_SLOTS + 1);
    large.add(1, HolderSet.MAX_SLOTS + 1, 10);
    assertThat(large.remove(1)).isTrue();
    assertThat(large.remove(1)).isFalse();

    HolderSet grown = new HolderSet(1);
    grown.add(1, 1, 10);
    grown.add(2, 2, 20); // the limit grew: the second holder has no slot of its own
    assertThat(grown.remove(2)).isTrue();
    assertThat(grown.remove(1)).isTrue();
  }

  @Test
  void concurrentHoldersOfAFewPermitsAreEachRemovedExactlyOnce() throws Exception {
    int limit = 3;
    HolderSet holders = new HolderSet(limit);
    Semaphore permits = new Semaphore(limit); // the count the caller takes before it adds
    AtomicLong ids = new AtomicLong();
    AtomicInteger lost = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread thread =
          new Thread(
              () -> {
                for (int i = 0; i < 20_000; i++) {
                  permits.acquireUninterruptibly();
                  long id = ids.incrementAndGet();
                  holders.add(id, limit, id);
                  if (!holders.remove(id)) {
                    lost.incrementAndGet();
                  }
                  permits.release();
                }
              });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join(60_000);
      assertThat(thread.isAlive()).isFalse();
    }
    assertThat(lost).hasValue(0);
    assertThat(holders.remove(1)).isFalse();
  }
}
