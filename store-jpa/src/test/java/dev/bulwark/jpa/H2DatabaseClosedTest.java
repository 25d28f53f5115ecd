package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An H2 file database that closes under the store's pool (what an {@code AUTO_SERVER} hand-over or
 * a JVM's stop does to it; here a {@code SHUTDOWN} on a connection of its own): the calls that meet
 * it see an outage, the pool drops the connections that point at the closed database, and calls
 * work again once the reconnect interval has passed. Before, the pool kept handing out a dead
 * connection to calls that came within half a second of each other, each failing for good.
 */
class H2DatabaseClosedTest {

  private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(20);

  @TempDir Path directory;

  @Test
  void callsWorkAgainAfterTheDatabaseClosedUnderThePool() throws Exception {
    String url = "jdbc:h2:file:" + directory.resolve("closing");
    Map<String, String> config =
        Map.of(
            "bulwark.jpa.url", url,
            "bulwark.jpa.user", "sa",
            "bulwark.jpa.password", "",
            "bulwark.jpa.schema-generation", "create",
            "bulwark.jpa.provider", Provider.HIBERNATE.className,
            "bulwark.jpa.reconnect-interval", "300ms");
    PermitSpec spec = new PermitSpec("closing", 1_000_000, 60_000);
    try (JpaStore store =
        JpaStore.open(
            JpaSettings.from(key -> Optional.ofNullable(config.get(key))), (r, t) -> {})) {
      assertThat(store.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);

      try (Connection own = DriverManager.getConnection(url, "sa", "");
          Statement statement = own.createStatement()) {
        statement.execute("SHUTDOWN");
      }

      // calls 50 ms apart, well within the half second in which HikariCP does not check a
      // connection it just had back
      List<String> outcomes = new ArrayList<>();
      long start = System.nanoTime();
      boolean granted = false;
      while (!granted && System.nanoTime() - start < BOUND_NANOS) {
        try {
          granted = store.permits().acquire(spec, 1, false) == Grant.GRANTED;
          outcomes.add(granted ? "granted" : "refused");
        } catch (StoreException e) {
          outcomes.add(e.getMessage());
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
      }
      Set<String> distinct = new LinkedHashSet<>(outcomes);
      assertThat(granted)
          .as(
              "granted again within 20 s; %s calls, distinct outcomes: %s",
              outcomes.size(), distinct)
          .isTrue();
      assertThat(outcomes)
          .as("the closed database is an outage, not a fault of the call")
          .filteredOn(outcome -> !outcome.equals("granted"))
          .isNotEmpty()
          .allSatisfy(outcome -> assertThat(outcome).contains("is unreachable"));
    }
  }
}
