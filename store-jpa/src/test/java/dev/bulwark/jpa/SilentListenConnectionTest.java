package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.tck.OutageRelay;
import dev.bulwark.tck.TestServices;
import dev.bulwark.tck.ThreadStacks;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A LISTEN connection that dies without a word (a firewall or NAT dropping it: nothing arrives,
 * nothing fails) is found out and opened again, and the hand-over announced on it meanwhile still
 * reaches the waiter long before a check interval of an hour. The waiter's JVM reaches PostgreSQL
 * through a relay that silences every connection it carried so far.
 */
class SilentListenConnectionTest {

  private final JpaStoreFixture fixture =
      new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);

  @Test
  void aSilentlyDeadListenConnectionIsReplaced() throws Exception {
    TestServices.Endpoint postgresql = TestServices.postgresql();
    PermitSpec spec = new PermitSpec("silent-listen", 1, 60_000);
    List<Long> told = new CopyOnWriteArrayList<>();
    try (OutageRelay relay = new OutageRelay(postgresql.host(), postgresql.port())) {
      relay.open();
      Map<String, String> config = fixture.config();
      config.put("wake-up-check-interval", "1h");
      Map<String, String> throughRelay = fixture.config();
      throughRelay.put("wake-up-check-interval", "1h");
      throughRelay.put(
          "url",
          postgresql
              .url()
              .replace(postgresql.host() + ":" + postgresql.port(), "127.0.0.1:" + relay.port()));
      try (JpaStore holder = fixture.open(config, (request, token) -> {});
          JpaStore waiter = fixture.open(throughRelay, (request, token) -> told.add(request))) {
        assertThat(holder.permits().acquire(spec, 10, false)).isEqualTo(Grant.GRANTED);
        assertThat(waiter.permits().acquire(spec, 1, true)).isEqualTo(Grant.QUEUED);

        relay.silenceConnections();
        assertThat(holder.permits().release(spec, 10)).isTrue();

        try {
          await().atMost(Duration.ofSeconds(60)).until(() -> told.contains(1L));
        } catch (ConditionTimeoutException e) {
          throw new AssertionError(
              "the hand-over was not told within 60 s; the threads:" + ThreadStacks.all(), e);
        }
      }
    } finally {
      fixture.close();
    }
  }
}
