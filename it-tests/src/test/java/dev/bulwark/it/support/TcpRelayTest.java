package dev.bulwark.it.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.tck.TestServices;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The relay the outage tests put between the workers and a shared server, on the shared Redis: it
 * carries a client's traffic, a cut breaks the open connection and refuses new ones, and after a
 * restore a new connection works and is counted.
 */
class TcpRelayTest {

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void carriesTrafficUntilCutAndAgainAfterRestore() {
    TestServices.Endpoint redis = TestServices.redis();
    try (TcpRelay relay = TcpRelay.start(redis.host(), redis.port())) {
      // not closed: the cut resets it, and closing it would only fail to send QUIT
      Jedis before = new Jedis("127.0.0.1", relay.port());
      assertThat(before.ping()).isEqualTo("PONG");

      relay.cut();
      assertThatThrownBy(before::ping)
          .as("a connection open at the cut")
          .isInstanceOf(JedisConnectionException.class);
      assertThatThrownBy(() -> new Jedis("127.0.0.1", relay.port()).ping())
          .as("a connection tried while cut")
          .isInstanceOf(JedisConnectionException.class);

      relay.restore();
      assertThat(relay.answeredSinceRestore()).as("answered before any new connection").isZero();
      try (Jedis after = new Jedis("127.0.0.1", relay.port())) {
        assertThat(after.ping()).isEqualTo("PONG");
      }
      assertThat(relay.answeredSinceRestore()).as("connections answered since restore").isOne();
    }
  }
}
