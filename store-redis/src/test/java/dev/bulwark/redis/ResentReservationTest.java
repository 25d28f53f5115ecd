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
    assertThat(clock.run(Scripts.RATE_SMOOTH, keys, args("jvm-a:1", "1"))).isEqualTo(0L);
    // another thread's call 1 is another reservation: the second and last permit
    assertThat(clock.run(Scripts.RATE_SMOOTH, keys, args("jvm-a:2", "1"))).isEqualTo(0L);
    assertThat((Long) clock.run(Scripts.RATE_SMOOTH, keys, args("jvm-b:1", "1"))).isNegative();
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
    replies.add(clock.run(script, keys, args("jvm-a:7", "1")));
    replies.add(clock.run(script, keys, args("jvm-a:7", "1"))); // the same call, re-sent
    replies.add(clock.run(script, keys, args("jvm-a:7", "2")));
    Object third = clock.run(script, keys, args("jvm-a:7", "3"));

    assertThat(replies)
        .as("%s: granted, the re-send answered alike, granted", type)
        .containsExactly(0L, 0L, 0L);
    assertThat((Long) third).as("%s: the third reservation of two permits", type).isNegative();
    assertThat(test.redis().pttl(test.keys().rateReplies(type))).isPositive();
  }

  private static List<String> args(String caller, String call) {
    return List.of("2", HOUR_MICROS, "0", caller, call);
  }
}
