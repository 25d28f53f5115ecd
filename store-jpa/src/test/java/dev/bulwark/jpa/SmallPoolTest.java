package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The store's own pool at its smallest, on PostgreSQL, where the store also holds a connection for
 * LISTEN: that connection does not come out of {@code pool-size}, and a pool whose connections are
 * all in use fails the call that found none, not the store.
 */
class SmallPoolTest {

  private final JpaStoreFixture fixture =
      new JpaStoreFixture(TestDatabase.POSTGRESQL, Provider.HIBERNATE);

  private Map<String, String> config() {
    Map<String, String> config = fixture.config();
    config.put("pool-size", "1");
    config.put("connect-timeout", "500ms");
    // long: a call the outage gate shut out would fail for the rest of the test
    config.put("reconnect-interval", "10m");
    return config;
  }

  @Test
  void aPoolOfOneServesTheOperations() {
    try (JpaStore store = fixture.open(config(), (request, token) -> {})) {
      PermitSpec spec = new PermitSpec("pool-of-one", 1, 60_000);
      assertThat(store.permits().acquire(spec, 1, false)).isEqualTo(Grant.GRANTED);
      assertThat(store.permits().release(spec, 1)).isTrue();
    } finally {
      fixture.close();
    }
  }

  @Test
  void anExhaustedPoolFailsTheCallThatFoundNoConnectionOnly() throws Exception {
    PermitSpec busy = new PermitSpec("pool-busy", 1, 60_000);
    PermitSpec other = new PermitSpec("pool-other", 1, 60_000);
    try (JpaStore store = fixture.open(config(), (request, token) -> {});
        Connection third = fixture.database().connect()) {
      assertThat(store.permits().acquire(busy, 1, false)).isEqualTo(Grant.GRANTED);
      assertThat(store.permits().release(busy, 1)).isTrue();
      String limits = fixture.prefix() + "limit";
      third.setAutoCommit(false);
      try (PreparedStatement lock =
          third.prepareStatement("SELECT id FROM " + limits + " WHERE id = ? FOR UPDATE")) {
        lock.setString(1, RowIds.limit(StoreCore.PERMITS, busy.name()));
        lock.executeQuery().close();
      }
      // holds the pool's one connection while it waits for the limit's row
      CompletableFuture<Grant> holding =
          CompletableFuture.supplyAsync(() -> store.permits().acquire(busy, 2, false));
      awaitWaitingOn(limits);

      assertThatThrownBy(() -> store.permits().acquire(other, 3, false))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("bulwark.jpa.pool-size");
      third.commit();
      assertThat(holding.get(30, TimeUnit.SECONDS)).isEqualTo(Grant.GRANTED);
      assertThat(store.permits().acquire(other, 3, false))
          .as("a call after the burst")
          .isEqualTo(Grant.GRANTED);
    } finally {
      fixture.close();
    }
  }

  private void awaitWaitingOn(String table) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              try (Connection connection = fixture.database().connect();
                  PreparedStatement query =
                      connection.prepareStatement(
                          "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                              + " AND query LIKE ?")) {
                query.setString(1, "%" + table + "%");
                try (ResultSet rows = query.executeQuery()) {
                  rows.next();
                  return rows.getInt(1) > 0;
                }
              }
            });
  }
}
