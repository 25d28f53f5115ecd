package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The rate suites' check must flag a certain violation and only a certain one. */
class GrantedSlotsTest {

  private static final long MS = 1_000_000L;

  @Test
  void slotsOneWindowApartAreWithinTheLimit() {
    GrantedSlots times = new GrantedSlots();
    for (int i = 0; i < 9; i++) {
      long slot = (i / 3) * 100 * MS; // three at 0, three at 100 ms, three at 200 ms
      times.granted(slot, slot + MS, 0);
    }
    assertThat(times.moreThanIn(3, 100 * MS)).isNull();
  }

  @Test
  void oneSlotTooManyInAWindowIsFlagged() {
    GrantedSlots times = new GrantedSlots();
    for (int i = 0; i < 3; i++) {
      times.granted(0, MS, 0);
    }
    times.granted(90 * MS, 91 * MS, 0);
    assertThat(times.moreThanIn(3, 100 * MS)).startsWith("4 slots within 91000000 ns");
  }

  @Test
  void reservationsCountAtTheirSlotNotAtTheCall() {
    GrantedSlots times = new GrantedSlots();
    for (int i = 0; i < 3; i++) {
      times.granted(0, MS, 0);
    }
    // a call made at once but reserving a slot a window later
    times.granted(0, MS, 100 * MS);
    assertThat(times.moreThanIn(3, 100 * MS)).isNull();
    times.granted(MS, 2 * MS, 50 * MS);
    assertThat(times.moreThanIn(3, 100 * MS)).isNotNull();
  }

  @Test
  void slotsWhoseBoundsAllowAWindowBetweenThemAreNotFlagged() {
    GrantedSlots times = new GrantedSlots();
    for (int i = 0; i < 3; i++) {
      times.granted(0, MS, 0);
    }
    // a call that took long: its slot may lie a full window after the first ones
    times.granted(10 * MS, 101 * MS, 0);
    assertThat(times.moreThanIn(3, 100 * MS)).isNull();
  }
}
