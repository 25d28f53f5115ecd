package dev.bulwark.quarkus.deployment.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Bulwark;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.cdi.DeclaredLimits;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.quarkus.config.BulwarkConfig;
import dev.bulwark.quarkus.config.NamedLimitKeys;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bulwark's keys as a Quarkus config mapping: the named keys (a default name with dots included),
 * the shorthand and the FT-style keys keep setting the limits, Quarkus accepts each of them, and
 * the mapping shows what was set.
 */
class ConfigMappingTest {

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .withApplicationRoot(archive -> archive.addClasses(Orders.class))
          .overrideConfigKey("bulwark.bulkhead." + Orders.class.getName() + "#audit.value", "4")
          .overrideConfigKey("bulwark.bulkhead.orders.value", "3")
          .overrideConfigKey("bulwark.bulkhead.orders.lease", "1m")
          .overrideConfigKey("bulwark.rate-limit.quotes", "7/1m")
          .overrideConfigKey(Orders.class.getName() + "/DistributedBulkhead/waitingTime", "250");

  @Inject BulwarkConfig config;
  @Inject NamedLimitKeys keys;
  @Inject Bulwark bulwark;
  @Inject Orders orders;
  @Inject DeclaredLimits declared;

  @Test
  void theMappingShowsTheKeysSet() {
    assertThat(config.store()).isEmpty();
    assertThat(config.bulkhead().get("orders").value()).hasValue("3");
    assertThat(config.bulkhead().get("orders").lease()).hasValue("1m");
    assertThat(config.rateLimit().get("quotes").shorthand()).hasValue("7/1m");
    assertThat(keys.bulkheadKeys()).containsEntry(Orders.class.getName() + "#audit.value", "4");
  }

  @Test
  void namedShorthandAndFtStyleKeysSetTheLimits() {
    assertThat(orders.place()).isEqualTo(3);
    assertThat(bulwark.rateLimiter("quotes").inspect().limit()).isEqualTo(7);
    assertThat(orders.audit()).isEqualTo(4);
    LimitDefinition definition =
        declared.catalog().named(LimitKind.BULKHEAD, "orders").orElseThrow();
    assertThat(definition.sources())
        .containsEntry("value", "bulwark.bulkhead.orders.value")
        .containsEntry("waitingTime", Orders.class.getName() + "/DistributedBulkhead/waitingTime");
  }

  @ApplicationScoped
  public static class Orders {
    @Inject Bulwark bulwark;

    @DistributedBulkhead(name = "orders", value = 1)
    public int place() {
      return bulwark.bulkhead("orders").inspect().limit();
    }

    /** Named after the method: {@code <class>#audit}, a name with dots. */
    @DistributedBulkhead(value = 1)
    public int audit() {
      return bulwark.bulkhead(Orders.class.getName() + "#audit").inspect().limit();
    }

    @DistributedRateLimit(name = "quotes", value = 100)
    public String quote() {
      return "42";
    }
  }
}
