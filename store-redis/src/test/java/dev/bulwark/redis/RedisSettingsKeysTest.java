package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.redis.client.RedisSettings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link RedisSettings#KEYS}, which a start checks the given {@code bulwark.redis.*} keys against,
 * are the keys reading the settings asks for, over every topology: a key read but not listed would
 * be refused as misspelt, one listed but not read would let a mistake pass.
 */
class RedisSettingsKeysTest {

  @Test
  void theListedKeysAreTheKeysRead() {
    List<Map<String, String>> configs =
        List.of(
            Map.of(),
            Map.of("bulwark.redis.cluster-nodes", "localhost:7000"),
            Map.of(
                "bulwark.redis.sentinel.master", "primary",
                "bulwark.redis.sentinel.nodes", "localhost:26379"),
            Map.of(
                "bulwark.redis.ssl", "true",
                "bulwark.redis.truststore", "target/no-such-truststore.p12",
                "bulwark.redis.truststore-password", "secret"));
    Set<String> read = new TreeSet<>();
    for (Map<String, String> config : configs) {
      try {
        RedisSettings.from(
            key -> {
              read.add(key);
              return Optional.ofNullable(config.get(key));
            });
      } catch (RuntimeException invalid) {
        // a truststore that is not there: the keys asked until then are what counts
      }
    }
    assertThat(read).containsExactlyInAnyOrderElementsOf(RedisSettings.KEYS);
  }
}
