package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bulwark.redis.RecordingStore.Wake;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.tck.OutageRelay;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A wake-up subscription whose network path goes silent without either end closing it (a half-open
 * connection) is noticed by its unanswered PING: it counts as lost, so readiness shows it, and once
 * the path works again it subscribes anew and wake-ups arrive by pub/sub again.
 */
@ExtendWith(RedisExtension.class)
class HalfOpenWakeUpSubscriptionTest {

  private static final PermitSpec ONE = new PermitSpec("pool", 1, 60_000);
  private static final Logger STORE_LOG = Logger.getLogger("dev.bulwark.redis");

  private OutageRelay relay;
  private Level storeLogLevel;

  @AfterEach
  void closeRelay() {
    if (relay != null) {
      relay.close();
    }
    STORE_LOG.setLevel(storeLogLevel);
  }

  @Test
  void aSilentSubscriptionIsDroppedAndMadeAgain(TestRedis test) throws Exception {
    storeLogLevel = STORE_LOG.getLevel();
    STORE_LOG.setLevel(Level.SEVERE); // the lost subscription is logged; expected here
    URI server = URI.create(test.url());
    relay = new OutageRelay(server.getHost(), server.getPort());
    relay.open();
    RecordingStore relayed =
        test.open(
            Map.of(
                "bulwark.redis.url", TestRedisServer.through(test.url(), relay),
                "bulwark.redis.read-timeout", "500ms",
                "bulwark.redis.reconnect-interval", "100ms"));
    RecordingStore direct = test.open();
    assertThat(relayed.store().wakeUpsSubscribed()).isTrue();
    long epochBefore = relayed.store().wakeUpEpoch();
    int changesBefore = relayed.wakeUpChanges.get();
    assertThat(epochBefore).as("the wake-up epoch while subscribed").isNotNegative();

    relay.stopForwarding();
    await("the silent subscription counted as lost")
        .atMost(Duration.ofSeconds(20))
        .until(() -> !relayed.store().wakeUpsSubscribed());
    // a wake-up published meanwhile may be lost: waiters must not trust the old epoch
    await("the epoch says wake-ups can be lost")
        .atMost(Duration.ofSeconds(20))
        .until(() -> relayed.store().wakeUpEpoch() == -1);

    relay.resumeForwarding();
    await("subscribed again")
        .atMost(Duration.ofSeconds(20))
        .until(() -> relayed.store().wakeUpsSubscribed());
    await("the epoch moved on")
        .atMost(Duration.ofSeconds(20))
        .until(() -> relayed.store().wakeUpEpoch() >= 0);
    assertThat(relayed.store().wakeUpEpoch()).isNotEqualTo(epochBefore);
    assertThat(relayed.wakeUpChanges.get())
        .as("the listener was told of the loss and of the new subscription")
        .isGreaterThanOrEqualTo(changesBefore + 2);
    assertThat(direct.store().permits().acquire(ONE, 1, true)).isEqualTo(Grant.GRANTED);
    assertThat(relayed.store().permits().acquire(ONE, 2, true)).isEqualTo(Grant.QUEUED);
    direct.store().permits().release(ONE, 1);
    assertThat(relayed.wakesSoFar(test.redis()))
        .as("the hand-over reached the new subscription")
        .extracting(Wake::requestId)
        .containsExactly(2L);
  }
}
