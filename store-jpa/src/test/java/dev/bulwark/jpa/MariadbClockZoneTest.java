package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.jpa.setup.Dialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The store's clock on a MariaDB server whose zone has a DST change: on the night Europe/Berlin
 * goes back from CEST to CET (2026-10-25, 01:00 UTC), the local hour 02:00-03:00 happens twice, and
 * the clock must still be UTC. The server runs with {@code --sysdate-is-now}, so that the session's
 * {@code timestamp} sets the time of the call too, and the time read is exactly the one set.
 */
class MariadbClockZoneTest {

  @Test
  void theClockIsUtcInTheHourADstChangeRepeats() throws Exception {
    Instant inRepeatedHour = Instant.parse("2026-10-25T00:30:00Z");
    Instant afterChange = Instant.parse("2026-10-25T01:30:00Z");
    Instant summer = Instant.parse("2026-07-01T12:00:00Z");
    try (PrivateMariadb server = new PrivateMariadb("Europe/Berlin", "--sysdate-is-now");
        Connection connection = server.connect()) {
      for (Instant instant : new Instant[] {inRepeatedHour, afterChange, summer}) {
        assertThat(clockAt(connection, instant))
            .as("the store's clock at %s", instant)
            .isEqualTo(instant.getEpochSecond() * 1_000_000);
      }
    }
  }

  private static long clockAt(Connection connection, Instant instant) throws Exception {
    try (Statement statement = connection.createStatement()) {
      statement.execute("SET timestamp = " + instant.getEpochSecond());
      try (ResultSet clock = statement.executeQuery(Dialect.MARIADB.nowMicrosSql())) {
        clock.next();
        return clock.getLong(1);
      }
    }
  }
}
