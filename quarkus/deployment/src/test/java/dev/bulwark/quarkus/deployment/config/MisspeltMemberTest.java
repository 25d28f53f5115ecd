package dev.bulwark.quarkus.deployment.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A named limit key whose member does not exist stops the start naming the key and the members,
 * also after a name with dots; a rate limit's key that is neither a member nor a shorthand too.
 */
class MisspeltMemberTest {

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .overrideConfigKey("bulwark.bulkhead.orders.vlaue", "3")
          .overrideConfigKey("bulwark.lock.com.acme.Accounts.leese", "10s")
          .overrideConfigKey("bulwark.rate-limit.quotes.windw", "1m")
          .overrideConfigKey("bulwark.rate-limit.partner-api", "5/1s")
          .assertException(
              failure ->
                  assertThat(StartFailure.messages(failure))
                      .contains(
                          "Invalid config key 'bulwark.bulkhead.orders.vlaue': a bulkhead key is"
                              + " bulwark.bulkhead.<name>.<member>, with <member> one of value,"
                              + " waiting-time, lease, enabled")
                      .contains("Invalid config key 'bulwark.lock.com.acme.Accounts.leese'")
                      .contains("Invalid config key 'bulwark.rate-limit.quotes.windw'")
                      .doesNotContain("'bulwark.rate-limit.partner-api'"));

  @Test
  void startFails() {
    fail("the start must fail for misspelt members");
  }
}
