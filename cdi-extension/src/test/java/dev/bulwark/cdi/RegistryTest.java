package dev.bulwark.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.Bulwark;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockKey;
import dev.bulwark.LockMode;
import dev.bulwark.Permit;
import dev.bulwark.core.engine.BulwarkEngine;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DefinitionException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The registry of limits: each declaration resolved once while the container deploys, one limit per
 * name shared by methods and the programmatic API, and a name declared twice with different values
 * failing the deployment.
 */
class RegistryTest {

  @ApplicationScoped
  public static class Guarded {
    @DistributedBulkhead(name = "shared-bulkhead", value = 2)
    public String first() {
      return "first";
    }

    @DistributedBulkhead(name = "shared-bulkhead", value = 2, waitingTime = 50)
    public String second() {
      return "second";
    }

    @DistributedRateLimit(name = "registry-rate", value = 1000)
    public String rated() {
      return "rated";
    }

    @DistributedLock(name = "registry-lock", mode = LockMode.READ)
    public String read(@LockKey String key) {
      return key;
    }
  }

  @ApplicationScoped
  public static class OtherValue {
    @DistributedBulkhead(name = "shared-bulkhead", value = 3)
    public String call() {
      return "other";
    }
  }

  @Test
  void eachGuardedMethodIsResolvedOnceHoweverOftenItIsCalled() {
    WeldContainers.withContainer(
        Map.of(),
        container -> {
          BulwarkEngine engine = container.select(BulwarkRuntime.class).get().engine();
          long atDeployment = engine.resolver().resolutions();
          Guarded guarded = container.select(Guarded.class).get();
          for (int i = 0; i < 20; i++) {
            guarded.first();
            guarded.second();
            guarded.rated();
            guarded.read("k" + i);
          }

          assertThat(atDeployment).as("one resolution per guarded method").isEqualTo(4);
          assertThat(engine.resolver().resolutions()).as("none at call time").isEqualTo(4);
          return null;
        },
        Guarded.class);
  }

  @Test
  void methodsAndTheProgrammaticApiThatNameOneLimitShareIt() {
    WeldContainers.withContainer(
        Map.of(),
        container -> {
          Guarded guarded = container.select(Guarded.class).get();
          Bulwark bulwark = container.select(Bulwark.class).get();
          BulwarkEngine engine = container.select(BulwarkRuntime.class).get().engine();
          try (Permit one = bulwark.bulkhead("shared-bulkhead").acquire();
              Permit two = bulwark.bulkhead("shared-bulkhead").acquire()) {
            assertThat(bulwark.bulkhead("shared-bulkhead").tryAcquire())
                .as("the annotation's value (2) applies to the programmatic handle")
                .isEmpty();
            assertThatThrownBy(guarded::first)
                .as("the methods see the permits the programmatic API holds")
                .isInstanceOf(dev.bulwark.BulkheadFullException.class);
            assertThatThrownBy(guarded::second)
                .isInstanceOf(dev.bulwark.BulkheadFullException.class);
          }
          assertThat(guarded.first()).isEqualTo("first");
          assertThat(engine.resolver().resolutions())
              .as("the programmatic API resolved nothing: the name was declared")
              .isEqualTo(4);
          assertThat(engine.registry().limits())
              .filteredOn(limit -> limit.definition().name().equals("shared-bulkhead"))
              .hasSize(1);
          return null;
        },
        Guarded.class);
  }

  @Test
  void oneNameDeclaredWithDifferentValuesFailsTheDeploymentNamingBothMethodsAndValues() {
    assertThatThrownBy(
            () ->
                WeldContainers.withContainer(Map.of(), c -> null, Guarded.class, OtherValue.class))
        .isInstanceOf(DefinitionException.class)
        .hasMessageContaining("'shared-bulkhead'")
        .hasMessageContaining(Guarded.class.getName() + "#first")
        .hasMessageContaining(OtherValue.class.getName() + "#call")
        .hasMessageContaining("value=2")
        .hasMessageContaining("value=3");
  }

  @Test
  void aConfigKeyThatMakesTheValuesAgreeLetsTheDeploymentThrough() {
    String other =
        WeldContainers.withContainer(
            Map.of("bulwark.bulkhead.shared-bulkhead.value", "4"),
            container -> container.select(OtherValue.class).get().call(),
            Guarded.class,
            OtherValue.class);
    assertThat(other).isEqualTo("other");
  }
}
