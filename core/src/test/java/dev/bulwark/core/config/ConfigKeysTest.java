package dev.bulwark.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Keys nobody reads are reported, all of them, each naming the key to use where one is close. */
class ConfigKeysTest {

  @Test
  void everyUnknownKeyAndMisspeltMemberAtOnce() {
    Map<String, String> config =
        Map.of(
            "bulwark.stroe", "redis",
            "bulwark.bulkhead.slow-api.vlaue", "3",
            "bulwark.bulkhead.com.acme.Billing#charge.value", "2",
            "bulwark.rate-limit.partner-api", "5/1s",
            "bulwark.rate-limit.quotes", "lots",
            "bulwark.redis.url", "redis://localhost",
            "bulwark.redis.pool-sise", "4",
            "quarkus.bulwark.store", "redis",
            "other.key", "x");

    List<String> problems =
        ConfigKeys.problems(
            config.keySet(),
            ConfigLookup.of(config),
            Set.of("bulwark.redis.url", "bulwark.redis.pool-size"));

    assertThat(problems)
        .containsExactly(
            "Invalid config key 'bulwark.bulkhead.slow-api.vlaue': a bulkhead key is"
                + " bulwark.bulkhead.<name>.<member>, with <member> one of value, waiting-time,"
                + " lease, enabled; did you mean 'bulwark.bulkhead.slow-api.value'?",
            "Invalid config key 'bulwark.rate-limit.quotes': a rate-limit key is"
                + " bulwark.rate-limit.<name>.<member>, with <member> one of value, window, type,"
                + " waiting-time, enabled, or bulwark.rate-limit.<name>=<permits>/<window>",
            "Invalid config key 'bulwark.redis.pool-sise': Bulwark has no such key; did you mean"
                + " 'bulwark.redis.pool-size'? (every key: docs/configuration.md)",
            "Invalid config key 'bulwark.stroe': Bulwark has no such key; did you mean"
                + " 'bulwark.store'? (every key: docs/configuration.md)",
            "Invalid config key 'quarkus.bulwark.store': Bulwark's keys have no 'quarkus.' prefix,"
                + " on Quarkus too: use 'bulwark.store'");
  }

  /** A runtime that does not know a store's keys leaves them to the store, which reads them. */
  @Test
  void aStoresKeysAreCheckedWhereTheRuntimeKnowsThem() {
    Map<String, String> config = Map.of("bulwark.redis.pool-sise", "4");
    assertThat(ConfigKeys.problems(config.keySet(), ConfigLookup.of(config), Set.of())).isEmpty();
    assertThat(
            ConfigKeys.problems(
                config.keySet(), ConfigLookup.of(config), Set.of("bulwark.redis.pool-size")))
        .singleElement()
        .asString()
        .contains("did you mean 'bulwark.redis.pool-size'?");
  }

  @Test
  void aThirdPartyStoresOwnKeysAreItsOwn() {
    Map<String, String> config =
        Map.of("bulwark.store", "hazelcast", "bulwark.hazelcast.members", "a,b");
    assertThat(ConfigKeys.problems(config.keySet(), ConfigLookup.of(config), Set.of())).isEmpty();

    Map<String, String> onRedis =
        Map.of("bulwark.store", "redis", "bulwark.hazelcast.members", "a");
    assertThat(ConfigKeys.problems(onRedis.keySet(), ConfigLookup.of(onRedis), Set.of()))
        .singleElement()
        .asString()
        .startsWith("Invalid config key 'bulwark.hazelcast.members': Bulwark has no such key");
  }
}
