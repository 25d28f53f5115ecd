package dev.bulwark.quarkus.deployment.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.quarkus.config.JpaConfig;
import dev.bulwark.quarkus.config.RedisConfig;
import dev.bulwark.redis.client.RedisSettings;
import org.junit.jupiter.api.Test;

/**
 * The store keys have one source, the list each store reads its settings from; a start checks the
 * keys it is given against that list. The Quarkus config mapping, which documents them for Quarkus
 * tooling, must declare exactly those keys, so that it can never drift from what the store reads.
 */
class StoreMappingTest {

  @Test
  void theRedisMappingDeclaresExactlyTheKeysTheRedisStoreReads() {
    assertThat(MappedStoreKeys.of("bulwark.redis.", RedisConfig.class))
        .containsExactlyInAnyOrderElementsOf(RedisSettings.KEYS);
  }

  @Test
  void theJpaMappingDeclaresExactlyTheKeysTheJpaStoreReads() {
    assertThat(MappedStoreKeys.of("bulwark.jpa.", JpaConfig.class))
        .containsExactlyInAnyOrderElementsOf(JpaSettings.KEYS);
  }
}
