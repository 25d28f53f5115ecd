package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.redis.client.InvalidRedisSettingException;
import dev.bulwark.redis.client.RedisSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.HostAndPort;

/**
 * Every {@code bulwark.redis.*} value that could be misread fails the start, naming the key and the
 * value, never a password: a typo must not quietly change what the store does.
 */
class StrictRedisSettingsTest {

  private static final String PASSWORD = "s3cret-pw";

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // a boolean is one MicroProfile Config takes: anything else must not mean plaintext
        "ssl | ture",
        "ssl | sure",
        "ssl | true false",
        // whole numbers: no sign, no garbage, no overflow, no zero
        "pool-size | 32x",
        "pool-size | 3 2",
        "pool-size | 2147483648",
        "pool-size | 99999999999999999999",
        "pool-size | 1e3",
        // durations: whole milliseconds, at least 1 ms, at most what a socket timeout holds
        "read-timeout | 1ns",
        "read-timeout | 500us",
        "connect-timeout | 1500us",
        "connect-timeout | 30d",
        "reconnect-interval | 99999999999999999999",
        "reconnect-interval | 999999999999999999d",
        "wake-up-check-interval | 2s later",
        "wake-up-check-interval | -5ms",
        // URLs: port, database, nothing the store would ignore
        "url | redis://localhost:99999",
        "url | redis://localhost:0",
        "url | redis://localhost:6379/abc",
        "url | redis://localhost:6379/-1",
        "url | redis://localhost:6379/99999999999",
        "url | redis://localhost:6379/1/2",
        "url | redis://localhost:6379?ssl=true",
        "url | redis://localhost:6379#x",
        "url | unix:///var/run/redis.sock",
        "url | https://localhost:6379",
        // node lists: host:port each, port 1 to 65535, no empty entry
        "cluster-nodes | n1:",
        "cluster-nodes | :7000",
        "cluster-nodes | n1:0",
        "cluster-nodes | n1:65536",
        "cluster-nodes | n1:99999999999",
        "cluster-nodes | n1:7000;n2:7001",
        "cluster-nodes | n1:7a00",
        "cluster-nodes | n1 :7000",
        "key-prefix | app{1}:",
      })
  void aValueThatCouldBeMisreadFailsTheStartNamingKeyAndValue(String key, String value) {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.redis.password", PASSWORD);
    config.put("bulwark.redis." + key, value);
    assertThatThrownBy(() -> settings(config))
        .isInstanceOf(InvalidRedisSettingException.class)
        .hasMessageContaining("'bulwark.redis." + key + "': '" + value + "'")
        .hasMessageNotContaining(PASSWORD);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // an empty entry of a list (a stray comma) is a typo, not nothing
        "cluster-nodes | n1:7000, | cluster-nodes",
        "cluster-nodes | n1:7000,,n2:7001 | cluster-nodes",
        "sentinel.nodes | s1:26379,s2 | sentinel.nodes",
        // sentinels without a master were silently ignored (standalone on localhost)
        "sentinel.nodes | s1:26379 | sentinel.master",
      })
  void aBadNodeListFailsTheStartNamingTheKey(String key, String value, String named) {
    Map<String, String> config = new HashMap<>();
    config.put("bulwark.redis." + key, value);
    if (key.equals("sentinel.nodes") && !named.equals("sentinel.master")) {
      config.put("bulwark.redis.sentinel.master", "mymaster");
    }
    assertThatThrownBy(() -> settings(config))
        .isInstanceOf(InvalidRedisSettingException.class)
        .hasMessageContaining("bulwark.redis." + named);
  }

  @Test
  void settingsThatContradictEachOtherFailTheStart() {
    assertRejected(
        Map.of(
            "bulwark.redis.cluster-nodes", "n1:7000",
            "bulwark.redis.sentinel.master", "mymaster",
            "bulwark.redis.sentinel.nodes", "s1:26379"),
        "bulwark.redis.cluster-nodes");
    assertRejected(
        Map.of("bulwark.redis.url", "rediss://localhost:6380", "bulwark.redis.ssl", "false"),
        "bulwark.redis.ssl");
    assertRejected(Map.of("bulwark.redis.user", "app"), "bulwark.redis.user");
    assertRejected(
        Map.of(
            "bulwark.redis.url", "redis://app:" + PASSWORD + "@localhost:6379",
            "bulwark.redis.password", "other-" + PASSWORD),
        "bulwark.redis.password");
    assertRejected(Map.of("bulwark.redis.truststore", "/tmp/ca.p12"), "bulwark.redis.truststore");
    assertRejected(
        Map.of("bulwark.redis.truststore-password", PASSWORD), "bulwark.redis.truststore-password");
    assertRejected(Map.of("bulwark.redis.truststore-type", "PEM"), "bulwark.redis.truststore-type");
    assertRejected(
        Map.of("bulwark.redis.ssl", "true", "bulwark.redis.truststore", "/nonexistent/ca.p12"),
        "bulwark.redis.truststore");
    assertRejected(
        Map.of(
            "bulwark.redis.ssl", "true",
            "bulwark.redis.truststore", "/nonexistent/ca.p12",
            "bulwark.redis.truststore-type", "p7b"),
        "bulwark.redis.truststore-type");
  }

  @Test
  void aPasswordOnlyUrlIsRejectedWithoutShowingThePassword() {
    // Jedis reads "redis://secret@host" as a password without user, and fails at the first call
    assertThatThrownBy(() -> settings(Map.of("bulwark.redis.url", "redis://" + PASSWORD + "@h:1")))
        .isInstanceOf(InvalidRedisSettingException.class)
        .hasMessageContaining("bulwark.redis.url")
        .hasMessageNotContaining(PASSWORD);
  }

  @Test
  void theAcceptedFormsAreReadAsWritten() {
    RedisSettings settings =
        settings(
            Map.of(
                "bulwark.redis.ssl", "TRUE",
                "bulwark.redis.cluster-nodes", " n1:7000 , [::1]:7001 ",
                "bulwark.redis.pool-size", "2147483647",
                "bulwark.redis.read-timeout", "PT0.25S",
                "bulwark.redis.connect-timeout", "2000us"));
    assertThat(settings.ssl()).isTrue();
    assertThat(settings.nodes())
        .containsExactly(new HostAndPort("n1", 7000), new HostAndPort("::1", 7001));
    assertThat(settings.poolSize()).isEqualTo(Integer.MAX_VALUE);
    assertThat(settings.readTimeout()).isEqualTo(Duration.ofMillis(250));
    assertThat(settings.connectTimeout()).isEqualTo(Duration.ofMillis(2));

    assertThat(settings(Map.of("bulwark.redis.ssl", "false")).ssl()).isFalse();
    assertThat(settings(Map.of("bulwark.redis.url", "rediss://h:6380/3")).ssl()).isTrue();
    assertThat(settings(Map.of("bulwark.redis.url", "redis://h:6379/")).ssl()).isFalse();
  }

  @Test
  void aStandaloneServerTakesItsCredentialsFromTheUrlOrFromTheKeys() {
    RedisSettings fromUrl = settings(Map.of("bulwark.redis.url", "redis://app:p%40ss@h:6379/2"));
    assertThat(List.of(fromUrl.user(), fromUrl.password())).containsExactly("app", "p@ss");

    RedisSettings fromKeys =
        settings(
            Map.of(
                "bulwark.redis.url", "redis://h:6379",
                "bulwark.redis.user", "app",
                "bulwark.redis.password", PASSWORD));
    assertThat(List.of(fromKeys.user(), fromKeys.password())).containsExactly("app", PASSWORD);
    assertThat(fromKeys.toString()).doesNotContain(PASSWORD);
  }

  private static void assertRejected(Map<String, String> config, String namedKey) {
    assertThatThrownBy(() -> settings(config))
        .isInstanceOf(InvalidRedisSettingException.class)
        .hasMessageContaining(namedKey)
        .hasMessageNotContaining(PASSWORD);
  }

  @ParameterizedTest(name = "ssl={0}")
  @CsvSource({"yes", "on", "1", "Y", "TRUE"})
  void sslTakesEveryTrueMicroProfileConfigTakes(String on) {
    assertThat(settings(Map.of("bulwark.redis.ssl", on)).ssl()).isTrue();
  }

  private static RedisSettings settings(Map<String, String> map) {
    return RedisSettings.from(key -> Optional.ofNullable(map.get(key)));
  }
}
