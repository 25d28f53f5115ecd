package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The key layout: every key of one bulkhead, one lock key or one rate limit shares one hash tag, so
 * each script touches one Cluster slot; untrusted lock keys enter key names only as a hash.
 */
class RedisKeysTest {

  private static final List<String> UNTRUSTED =
      List.of("a b{c}\n", "}{", "{", "}", "", "ключ 🔑", "*?[]", "x:y", "\u0000\r\n");

  private final RedisKeys keys = new RedisKeys("bulwark:");

  @Test
  void theKeysOfOneBulkheadShareOneHashTag() {
    List<String> family = new ArrayList<>(keys.bulkhead("legacy-api").all());
    assertThat(family)
        .containsExactly(
            "bulwark:{b:legacy-api}:holders",
            "bulwark:{b:legacy-api}:queue-order",
            "bulwark:{b:legacy-api}:queue-leases",
            "bulwark:{b:legacy-api}:state");
    family.add(keys.bulkheadDefinition("legacy-api"));
    assertOneTag(family, "b:legacy-api");
  }

  @Test
  void theKeysOfOneLockKeyShareOneHashTagMadeOfTheKeysHash() {
    for (String key : UNTRUSTED) {
      List<String> lock = keys.lock("accounts", key).all();
      String tag = "l:accounts:" + RedisKeys.hash(key);
      assertThat(lock)
          .containsExactly(
              "bulwark:{" + tag + "}:readers",
              "bulwark:{" + tag + "}:state",
              "bulwark:{" + tag + "}:queue-order",
              "bulwark:{" + tag + "}:queue-leases");
      assertOneTag(lock, tag);
      for (String name : lock) {
        assertThat(name).matches("bulwark:\\{l:accounts:[0-9a-f]{32}\\}:[a-z-]+");
      }
    }
  }

  @Test
  void theKeysOfOneRateLimitShareOneHashTag() {
    assertOneTag(
        List.of(
            keys.rate("external-api", "smooth"),
            keys.rate("external-api", "fixed"),
            keys.rate("external-api", "rolling"),
            keys.rateDefinition("external-api")),
        "r:external-api");
    assertThat(keys.rate("external-api", "smooth")).isEqualTo("bulwark:{r:external-api}:smooth");
  }

  @Test
  void differentLockKeysGetDifferentTagsAndHashesAreFixedLength() {
    Set<String> hashes = new HashSet<>();
    for (String key : UNTRUSTED) {
      String hash = RedisKeys.hash(key);
      assertThat(hash).hasSize(32).matches("[0-9a-f]+").isEqualTo(RedisKeys.hash(key));
      hashes.add(hash);
    }
    assertThat(hashes).hasSameSizeAs(UNTRUSTED);
    assertThat(RedisKeys.hash("a".repeat(100_000))).hasSize(32);
  }

  @Test
  void bulkheadsLocksAndRateLimitsOfOneNameNeverShareKeys() {
    Set<String> all = new HashSet<>();
    all.addAll(keys.bulkhead("x").all());
    all.add(keys.bulkheadDefinition("x"));
    all.addAll(keys.lock("x", "").all());
    all.add(keys.rate("x", "smooth"));
    all.add(keys.rateDefinition("x"));
    assertThat(all).hasSize(4 + 1 + 4 + 1 + 1);
  }

  @Test
  void thePrefixStartsEveryKeyAndTheWakeUpChannel() {
    RedisKeys prefixed = new RedisKeys("app1:");
    List<String> all = new ArrayList<>(prefixed.bulkhead("n").all());
    all.addAll(prefixed.lock("n", "k").all());
    all.add(prefixed.rate("n", "fixed"));
    all.add(prefixed.bulkheadDefinition("n"));
    all.add(prefixed.rateDefinition("n"));
    all.add(prefixed.wakeUpChannel("0123abcd"));
    assertThat(all).allSatisfy(name -> assertThat(name).startsWith("app1:"));
    assertThat(prefixed.wakeUpChannel("0123abcd")).isEqualTo("app1:wake:0123abcd");
  }

  /** Every name has exactly the given hash tag (Redis Cluster's rule) and so the same slot. */
  private static void assertOneTag(List<String> names, String tag) {
    int slot = JedisClusterCRC16.getSlot("{" + tag + "}");
    for (String name : names) {
      assertThat(hashTag(name)).as("hash tag of %s", name).isEqualTo(tag);
      assertThat(JedisClusterCRC16.getSlot(name)).as("slot of %s", name).isEqualTo(slot);
    }
  }

  /** The part Redis Cluster hashes: between the first '{' and the first '}' after it. */
  private static String hashTag(String key) {
    int open = key.indexOf('{');
    if (open < 0) {
      return null;
    }
    int close = key.indexOf('}', open + 1);
    if (close <= open + 1) {
      return null;
    }
    return key.substring(open + 1, close);
  }
}
