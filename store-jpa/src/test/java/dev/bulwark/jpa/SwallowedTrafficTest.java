package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreException;
import dev.bulwark.tck.OutageRelay;
import dev.bulwark.tck.TestServices;
import dev.bulwark.tck.ThreadStacks;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A network that swallows everything for a while (a statement in flight, the handshake of a
 * connection the pool opens meanwhile) leaves the store serving calls once it is back. Both drivers
 * wait for a statement's answer without a limit (PostgreSQL's for the handshake too): the swallowed
 * handshake would hold the pool's one thread that opens connections, the swallowed statement its
 * connection and its caller, for good.
 */
@Timeout(120)
class SwallowedTrafficTest {

  @ParameterizedTest
  @EnumSource(names = {"POSTGRESQL", "MARIADB"})
  void theStoreServesCallsAgainOnceTheNetworkIsBack(TestDatabase database) throws Exception {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
    TestServices.Endpoint server =
        database == TestDatabase.POSTGRESQL ? TestServices.postgresql() : TestServices.mariadb();
    PermitSpec spec = new PermitSpec("swallowed-traffic", 10, 60_000);
    try (OutageRelay relay = new OutageRelay(server.host(), server.port())) {
      relay.open();
      Map<String, String> config = fixture.config();
      config.put("pool-size", "1");
      config.put(
          "url",
          config
              .get("url")
              .replace(server.host() + ":" + server.port(), "127.0.0.1:" + relay.port()));
      try (JpaStore store = fixture.open(config, (request, token) -> {})) {
        assertThat(store.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);

        relay.stopForwarding();
        // idle past the pool's validation bypass: the next call finds its connection dead, and
        // the pool opens a new one into the silence
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
        assertThatThrownBy(() -> store.permits().acquire(spec, 2, false))
            .isInstanceOf(StoreException.class);
        relay.resumeForwarding();

        try {
          await()
              .atMost(Duration.ofSeconds(60))
              .ignoreExceptions()
              .until(() -> store.permits().acquire(spec, 3, false) == Grant.GRANTED);
        } catch (ConditionTimeoutException e) {
          Exception last = null;
          try {
            store.permits().acquire(spec, 3, false);
          } catch (Exception failure) {
            last = failure;
          }
          throw new AssertionError(
              "no call served within 60 s of the network's return; the threads:"
                  + ThreadStacks.all(),
              last);
        }
      }
    } finally {
      fixture.close();
    }
  }
}
