package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.redis.client.InvalidRedisSettingException;
import dev.bulwark.redis.client.RedisSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code bulwark.redis.wait-replicas} and its timeout as read from the config. */
class WaitReplicasSettingTest {

  @Test
  void byDefaultGrantsWaitForNoReplica() {
    RedisSettings settings = settings(Map.of());
    assertThat(settings.waitReplicas()).isZero();
    assertThat(settings.waitReplicasTimeout()).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void readsTheCountAndTheTimeout() {
    RedisSettings settings =
        settings(
            Map.of(
                "bulwark.redis.wait-replicas", " 2 ",
                "bulwark.redis.wait-replicas-timeout", "250ms"));
    assertThat(settings.waitReplicas()).isEqualTo(2);
    assertThat(settings.waitReplicasTimeout()).isEqualTo(Duration.ofMillis(250));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "wait-replicas | -1",
        "wait-replicas | one",
        "wait-replicas | 1.5",
        "wait-replicas | +1",
        "wait-replicas-timeout | 0ms",
        "wait-replicas-timeout | soon",
      })
  void aBadValueIsRejectedNamingItsKey(String key, String value) {
    assertThatThrownBy(() -> settings(Map.of("bulwark.redis." + key, value)))
        .isInstanceOf(InvalidRedisSettingException.class)
        .hasMessageContaining("'bulwark.redis." + key + "': '" + value + "'");
  }

  private static RedisSettings settings(Map<String, String> map) {
    return RedisSettings.from(key -> Optional.ofNullable(map.get(key)));
  }
}
