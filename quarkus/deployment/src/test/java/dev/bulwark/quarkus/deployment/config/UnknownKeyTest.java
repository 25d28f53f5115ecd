package dev.bulwark.quarkus.deployment.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.bulwark.DistributedBulkhead;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every mistake of a start in one failure: a {@code bulwark.*} key nothing reads, a misspelt
 * member, a store's key nothing reads, a {@code quarkus.bulwark.*} key (named with the key to use),
 * a bad engine-wide value and two bad values of one limit, each with the key it came from.
 */
class UnknownKeyTest {

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .withApplicationRoot(archive -> archive.addClasses(SlowApi.class))
          .overrideConfigKey("bulwark.stroe", "redis")
          .overrideConfigKey("bulwark.bulkhead.slow-api.vlaue", "3")
          .overrideConfigKey("quarkus.bulwark.failure-policy", "fail-open")
          .overrideConfigKey("bulwark.failure-policy", "fail-later")
          .overrideConfigKey("bulwark.bulkhead.orders.value", "ten")
          .overrideConfigKey("bulwark.bulkhead.orders.lease", "0s")
          .overrideConfigKey("bulwark.redis.sentinel.mastre", "main")
          .assertException(
              failure ->
                  assertThat(StartFailure.messages(failure))
                      .contains(
                          "Invalid config key 'bulwark.stroe': Bulwark has no such key; did you"
                              + " mean 'bulwark.store'?")
                      .contains(
                          "Invalid config key 'bulwark.bulkhead.slow-api.vlaue': a bulkhead key"
                              + " is bulwark.bulkhead.<name>.<member>")
                      .contains("did you mean 'bulwark.bulkhead.slow-api.value'?")
                      .contains(
                          "Invalid config key 'quarkus.bulwark.failure-policy': Bulwark's keys"
                              + " have no 'quarkus.' prefix, on Quarkus too: use"
                              + " 'bulwark.failure-policy'")
                      .contains("Invalid config key 'bulwark.failure-policy': 'fail-later'")
                      .contains("member 'value' from config key 'bulwark.bulkhead.orders.value'")
                      .contains("member 'lease' from config key 'bulwark.bulkhead.orders.lease'")
                      .contains(
                          "Invalid config key 'bulwark.redis.sentinel.mastre': Bulwark has no such"
                              + " key; did you mean 'bulwark.redis.sentinel.master'?"));

  @Test
  void startFails() {
    fail("the start must fail");
  }

  @ApplicationScoped
  public static class SlowApi {
    @DistributedBulkhead(name = "orders", value = 2)
    public void call() {}
  }
}
