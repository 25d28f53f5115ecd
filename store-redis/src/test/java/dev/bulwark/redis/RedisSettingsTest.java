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

/** bulwark.redis.* as read by {@link RedisSettings#from}: defaults, bad values, no secrets. */
class RedisSettingsTest {

  @Test
  void defaultsDescribeALocalStandaloneServer() {
    RedisSettings settings = settings(Map.of());
    assertThat(settings.topology()).isEqualTo(RedisSettings.Topology.STANDALONE);
    assertThat(settings.url()).hasToString("redis://localhost:6379");
    assertThat(settings.keyPrefix()).isEqualTo("bulwark:");
    assertThat(settings.poolSize()).isPositive();
    assertThat(settings.wakeUpCheckInterval()).isPositive();
    assertThat(settings.reconnectInterval()).isPositive();
    assertThat(settings.describe()).isEqualTo("Redis redis://localhost:6379");
  }

  @Test
  void readsDurationsInEveryAcceptedForm() {
    RedisSettings settings =
        settings(
            Map.of(
                "bulwark.redis.wake-up-check-interval", "200ms",
                "bulwark.redis.reconnect-interval", "PT0.5S",
                "bulwark.redis.connect-timeout", "3s",
                "bulwark.redis.read-timeout", " 750 ",
                "bulwark.redis.pool-size", "8",
                "bulwark.redis.key-prefix", "app:"));
    assertThat(settings.wakeUpCheckInterval()).isEqualTo(Duration.ofMillis(200));
    assertThat(settings.reconnectInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(settings.readTimeout()).isEqualTo(Duration.ofMillis(750));
    assertThat(settings.poolSize()).isEqualTo(8);
    assertThat(settings.keyPrefix()).isEqualTo("app:");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "pool-size | 0",
        "pool-size | -3",
        "pool-size | many",
        "url | http://x",
        "url | redis://",
        "url | ::not a url::",
        "key-prefix | a{b",
        "key-prefix | a}b",
        "wake-up-check-interval | abc",
        "wake-up-check-interval | 0ms",
        "reconnect-interval | -1s",
        "connect-timeout | 5 parsecs",
        "cluster-nodes | host-without-port",
        "sentinel.master | mymaster",
      })
  void aBadValueIsRejectedNamingItsKey(String key, String value) {
    assertThatThrownBy(() -> settings(Map.of("bulwark.redis." + key, value)))
        .isInstanceOf(InvalidRedisSettingException.class)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bulwark.redis.");
    if (!key.equals("sentinel.master")) {
      assertThatThrownBy(() -> settings(Map.of("bulwark.redis." + key, value)))
          .hasMessageContaining("bulwark.redis." + key);
    } else {
      // A master without sentinels: the message names the missing key.
      assertThatThrownBy(() -> settings(Map.of("bulwark.redis." + key, value)))
          .hasMessageContaining("bulwark.redis.sentinel.nodes");
    }
  }

  @Test
  void theBadValuesOfTheContractNameTheirKey() {
    assertThatThrownBy(() -> settings(Map.of("bulwark.redis.pool-size", "0")))
        .hasMessageContaining("bulwark.redis.pool-size");
    assertThatThrownBy(() -> settings(Map.of("bulwark.redis.url", "http://x")))
        .hasMessageContaining("bulwark.redis.url");
    assertThatThrownBy(() -> settings(Map.of("bulwark.redis.key-prefix", "a{b")))
        .hasMessageContaining("bulwark.redis.key-prefix");
    assertThatThrownBy(() -> settings(Map.of("bulwark.redis.wake-up-check-interval", "abc")))
        .hasMessageContaining("bulwark.redis.wake-up-check-interval");
  }

  @Test
  void neverShowsThePasswordOfTheUrl() {
    RedisSettings settings = settings(Map.of("bulwark.redis.url", "redis://user:secret@host:6379"));
    assertThat(settings.toString()).doesNotContain("secret").contains("host:6379");
    assertThat(settings.describe()).doesNotContain("secret").contains("host:6379");

    RedisSettings tls = settings(Map.of("bulwark.redis.url", "rediss://:secret@host:6380/2"));
    assertThat(tls.toString()).doesNotContain("secret").contains("rediss://host:6380");
  }

  @Test
  void neverShowsThePasswordOfARejectedUrl() {
    assertThatThrownBy(() -> settings(Map.of("bulwark.redis.url", "http://user:secret@host:6379")))
        .hasMessageContaining("bulwark.redis.url")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> settings(Map.of("bulwark.redis.url", "redis://user:secret@")))
        .hasMessageContaining("bulwark.redis.url")
        .hasMessageNotContaining("secret");
  }

  @Test
  void neverShowsAPasswordWithReservedCharactersOfARejectedUrl() {
    // Unencoded '@' or '/' in the password make the URL unparsable; the message must still hide it.
    assertThatThrownBy(() -> settings(Map.of("bulwark.redis.url", "redis://user:s3cr@t@host:6379")))
        .hasMessageContaining("bulwark.redis.url")
        .hasMessageNotContaining("s3cr")
        .hasMessageNotContaining("cr@t");
    assertThatThrownBy(() -> settings(Map.of("bulwark.redis.url", "redis://user:s3cr/t@host:6379")))
        .hasMessageContaining("bulwark.redis.url")
        .hasMessageNotContaining("s3cr");
  }

  @Test
  void neverShowsTheClusterOrSentinelPassword() {
    RedisSettings cluster =
        settings(
            Map.of(
                "bulwark.redis.cluster-nodes", "n1:7000, n2:7001",
                "bulwark.redis.password", "secret"));
    assertThat(cluster.topology()).isEqualTo(RedisSettings.Topology.CLUSTER);
    assertThat(cluster.nodes()).hasSize(2);
    assertThat(cluster.toString()).doesNotContain("secret");

    RedisSettings sentinel =
        settings(
            Map.of(
                "bulwark.redis.sentinel.master", "mymaster",
                "bulwark.redis.sentinel.nodes", "s1:26379",
                "bulwark.redis.password", "secret"));
    assertThat(sentinel.topology()).isEqualTo(RedisSettings.Topology.SENTINEL);
    assertThat(sentinel.toString()).doesNotContain("secret").contains("mymaster");
  }

  private static RedisSettings settings(Map<String, String> map) {
    return RedisSettings.from(key -> Optional.ofNullable(map.get(key)));
  }
}
