package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.redis.client.LuaScript;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A rate reservation the client sends twice (Jedis' Cluster executor re-sends a script after a
 * connection error, when the first may have run) takes one slot, and the second send gets the
 * first's reply. Two permits an hour: a reservation, its re-send and a second reservation must all
 * be granted, and only the third reservation rejected.
 */
@ExtendWith(RedisExtension.class)
class ResentReservationTest {

  private static final String HOUR_MICROS = Long.toString(3_600_000_000L);

  @Test
  void aResentSmoothReservationTakesOneSlot(TestRedis test) {
    assertOneSlotPerReservation(test, Scripts.RATE_SMOOTH, "smooth");
  }

  @Test
  void aResentFixedReservationTakesOneSlot(TestRedis test) {
    assertOneSlotPerReservation(test, Scripts.RATE_FIXED, "fixed");
  }

  @Test
  void aResentRollingReservationTakesOneSlot(TestRedis test) {
    assertOneSlotPerReservation(test, Scripts.RATE_ROLLING, "rolling");
  }

  @Test
  void callersAreToldApartAndWithoutACallerNothingIsRemembered(TestRedis test) {
    ControlledClock clock = new ControlledClock(test);
    List<String> keys =
        List.of(test.keys().rate("apart", "smooth"), test.keys().rateReplies("apart"));
    assertThat(clock.run(Scripts.RATE_SMOOTH, keys, args("jvm-a", "1"))).isEqualTo(0L);
    // another JVM's call 1 is another reservation: the second and last permit
    assertThat(clock.run(Scripts.RATE_SMOOTH, keys, args("jvm-b", "1"))).isEqualTo(0L);
    assertThat((Long) clock.run(Scripts.RATE_SMOOTH, keys, args("jvm-c", "1"))).isNegative();
    // a caller that sends no id (a standalone server: Jedis sends each script once) is not kept
    List<String> plainKeys = List.of(test.keys().rate("plain", "smooth"));
    clock.run(Scripts.RATE_SMOOTH, plainKeys, List.of("2", HOUR_MICROS, "0"));
    assertThat(test.redis().exists(test.keys().rateReplies("plain"))).isFalse();
  }

  private static void assertOneSlotPerReservation(TestRedis test, LuaScript script, String type) {
    ControlledClock clock = new ControlledClock(test);
    // a fixed window starts at a multiple of its length: stand at the start of an hour
    clock.set(1_700_000_000_000_000L / 3_600_000_000L * 3_600_000_000L);
    List<String> keys = List.of(test.keys().rate(type, type), test.keys().rateReplies(type));
    List<Object> replies = new ArrayList<>();
    replies.add(clock.run(script, keys, args("jvm-a", "1")));
    replies.add(clock.run(script, keys, args("jvm-a", "1"))); // the same call, re-sent
    replies.add(clock.run(script, keys, args("jvm-a", "2")));
    Object third = clock.run(script, keys, args("jvm-a", "3"));

    assertThat(replies)
        .as("%s: granted, the re-send answered alike, granted", type)
        .containsExactly(0L, 0L, 0L);
    assertThat((Long) third).as("%s: the third reservation of two permits", type).isNegative();
    assertThat(test.redis().pttl(test.keys().rateReplies(type))).isPositive();
  }

  /**
   * A JVM keeps only the replies of its calls in flight: those below the lowest call it still waits
   * for are dropped, leaving its calls in flight and one marker field.
   */
  @Test
  void onlyTheRepliesOfCallsStillInFlightAreKept(TestRedis test) {
    ControlledClock clock = new ControlledClock(test);
    List<String> keys =
        List.of(test.keys().rate("kept", "smooth"), test.keys().rateReplies("kept"));
    String replies = test.keys().rateReplies("kept");
    for (int call = 1; call <= 50; call++) {
      clock.run(Scripts.RATE_SMOOTH, keys, args(1000, "jvm-a", call, call));
      assertThat(test.redis().hkeys(replies)).containsExactlyInAnyOrder("jvm-a", "jvm-a:" + call);
    }
    // calls 51 and 52 in flight together, then 53 once 51 was answered
    clock.run(Scripts.RATE_SMOOTH, keys, args(1000, "jvm-a", 51, 51));
    clock.run(Scripts.RATE_SMOOTH, keys, args(1000, "jvm-a", 52, 51));
    assertThat(test.redis().hkeys(replies))
        .containsExactlyInAnyOrder("jvm-a", "jvm-a:51", "jvm-a:52");
    clock.run(Scripts.RATE_SMOOTH, keys, args(1000, "jvm-a", 53, 52));
    assertThat(test.redis().hkeys(replies))
        .containsExactlyInAnyOrder("jvm-a", "jvm-a:52", "jvm-a:53");
  }

  /** A call its JVM no longer waits for (arriving after later ones) takes no slot. */
  @Test
  void aCallArrivingAfterItsJvmStoppedWaitingTakesNoSlot(TestRedis test) {
    ControlledClock clock = new ControlledClock(test);
    List<String> keys =
        List.of(test.keys().rate("late", "smooth"), test.keys().rateReplies("late"));
    assertThat(clock.run(Scripts.RATE_SMOOTH, keys, args(2, "jvm-a", 5, 5))).isEqualTo(0L);
    assertThat(clock.run(Scripts.RATE_SMOOTH, keys, args(2, "jvm-a", 3, 3))).isEqualTo(-1L);
    // the second of two permits is still there
    assertThat(clock.run(Scripts.RATE_SMOOTH, keys, args(2, "jvm-a", 6, 6))).isEqualTo(0L);
  }

  /** The fields of a JVM silent for over a minute (an ended one) go, though others keep calling. */
  @Test
  void theRepliesOfASilentJvmAreDropped(TestRedis test) {
    ControlledClock clock = new ControlledClock(test);
    List<String> keys =
        List.of(test.keys().rate("gone", "smooth"), test.keys().rateReplies("gone"));
    String replies = test.keys().rateReplies("gone");
    clock.run(Scripts.RATE_SMOOTH, keys, args(1000, "jvm-gone", 7, 7));
    for (int call = 1; call <= 64; call++) {
      clock.advanceMillis(1_000);
      clock.run(Scripts.RATE_SMOOTH, keys, args(1000, "jvm-b", call, call));
    }
    assertThat(test.redis().hkeys(replies)).containsExactlyInAnyOrder("jvm-b", "jvm-b:64");
  }

  private static List<String> args(String jvm, String call) {
    return List.of("2", HOUR_MICROS, "0", jvm, call, call);
  }

  private static List<String> args(int permits, String jvm, int call, int oldestInFlight) {
    return List.of(
        Integer.toString(permits),
        HOUR_MICROS,
        "0",
        jvm,
        Integer.toString(call),
        Integer.toString(oldestInFlight));
  }
}
