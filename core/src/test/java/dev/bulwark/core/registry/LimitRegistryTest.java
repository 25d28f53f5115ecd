package dev.bulwark.core.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedLock;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.core.config.Origin;
import dev.bulwark.core.engine.BulwarkEngine;
import java.lang.reflect.Method;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One limit per kind and name, built on first use (or all at once), listed with its stats. */
class LimitRegistryTest {

  static class Billing {
    @DistributedLock(name = "ledger")
    public void charge() {}
  }

  @Test
  void eachNameOfEachKindIsOneLimitBuiltOnFirstUseAndListed() {
    try (BulwarkEngine engine =
        BulwarkEngine.start(ConfigLookup.of(Map.of("bulwark.bulkhead.orders.value", "3")))) {
      LimitRegistry registry = engine.registry();
      assertThat(registry.limits()).isEmpty();

      var bulkhead = registry.bulkhead("orders");
      var rate = registry.rateLimiter("orders");
      var lock = registry.lock("orders");

      assertThat(registry.bulkhead("orders")).isSameAs(bulkhead);
      assertThat(registry.bulkhead(bulkhead.definition())).isSameAs(bulkhead);
      assertThat(registry.rateLimiter(rate.definition())).isSameAs(rate);
      assertThat(registry.lock(lock.definition())).isSameAs(lock);
      assertThat(bulkhead.definition().value()).isEqualTo(3);
      assertThat(registry.limits())
          .extracting(l -> l.definition().kind() + " " + l.definition().name())
          .containsExactlyInAnyOrder("BULKHEAD orders", "RATE_LIMIT orders", "LOCK orders");
      assertThat(registry.limits()).allSatisfy(l -> assertThat(l.stats()).isNotNull());
    }
  }

  @Test
  void buildAllBuildsEveryDeclaredLimitAndTheCatalogKnowsItByName() throws Exception {
    try (BulwarkEngine engine = BulwarkEngine.start(ConfigLookup.empty())) {
      LimitRegistry registry = engine.registry();
      LimitDefinition declared =
          registry.declare(LimitDeclaration.programmatic(LimitKind.LOCK, "accounts"));
      assertThat(declared.name()).isEqualTo("accounts");
      assertThat(registry.catalog().named(LimitKind.LOCK, "accounts")).contains(declared);
      assertThat(registry.catalog().named(LimitKind.BULKHEAD, "accounts")).isEmpty();
      Method charge = Billing.class.getMethod("charge");
      assertThat(registry.forMethod(Billing.class, charge, LimitKind.LOCK)).isNull();
      LimitDefinition ledger =
          registry.declare(
              LimitDeclaration.ofAnnotation(
                  Billing.class,
                  charge,
                  Origin.of(Billing.class, charge),
                  charge.getAnnotation(DistributedLock.class)));
      assertThat(registry.forMethod(Billing.class, charge, LimitKind.LOCK)).isSameAs(ledger);
      assertThat(registry.limits()).isEmpty();

      registry.buildAll();

      assertThat(registry.limits())
          .extracting(l -> l.definition())
          .containsExactlyInAnyOrder(declared, ledger);
      assertThat(registry.lock("accounts").definition()).isEqualTo(declared);
    }
  }
}
