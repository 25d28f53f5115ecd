package dev.bulwark.sample;

import dev.bulwark.tck.TestServices;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The {@code redis} profile of {@code application.properties}, pointed at the test Redis and at a
 * key prefix of this test JVM, so parallel builds on one Redis do not share limits.
 */
public class RedisProfile implements QuarkusTestProfile {

  /** The same in every class loader of this JVM: Quarkus loads this class more than once. */
  static final String KEY_PREFIX = "bulwark-sample-test-" + ProcessHandle.current().pid() + ":";

  @Override
  public String getConfigProfile() {
    return "redis";
  }

  @Override
  public Map<String, String> getConfigOverrides() {
    return Map.of(
        "bulwark.redis.url",
        TestServices.redis().url(),
        "bulwark.redis.key-prefix",
        KEY_PREFIX,
        "sample.legacy.call-duration",
        "100ms");
  }
}
