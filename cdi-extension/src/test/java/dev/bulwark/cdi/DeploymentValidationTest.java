package dev.bulwark.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedRateLimit;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DefinitionException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.junit.jupiter.api.Test;

class DeploymentValidationTest {

  @ApplicationScoped
  public static class ZeroBulkhead {
    @DistributedBulkhead(value = 0)
    public String call() {
      return "never";
    }
  }

  @ApplicationScoped
  public static class Legacy {
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger inside = new AtomicInteger();

    public int inside() {
      return inside.get();
    }

    public void release() {
      release.countDown();
    }

    @DistributedBulkhead(name = "legacy-api", value = 5)
    public String call() throws InterruptedException {
      inside.incrementAndGet();
      release.await(10, TimeUnit.SECONDS);
      return "done";
    }
  }

  @ApplicationScoped
  public static class SpacedName {
    @DistributedRateLimit(name = "partner api")
    public String call() {
      return "never";
    }
  }

  @Test
  void zeroValueFailsTheDeploymentNamingMethodAndMember() {
    assertThatThrownBy(() -> WeldContainers.withContainer(Map.of(), c -> null, ZeroBulkhead.class))
        .isInstanceOf(DefinitionException.class)
        .hasMessageContaining(ZeroBulkhead.class.getName() + "#call")
        .hasMessageContaining("member 'value'")
        .hasMessageContaining("bulwark.bulkhead." + ZeroBulkhead.class.getName() + "#call");
  }

  /** One DefinitionException lists every mistake, each with the key it came from. */
  @Test
  void everyMistakeInOneDefinitionException() {
    // the application's own config, whose names are those of its start (system properties set
    // after the JVM's config was made are read, but need not be listed)
    Config config =
        new SmallRyeConfigBuilder()
            .withSources(
                new PropertiesConfigSource(
                    Map.of(
                        "bulwark.stroe", "redis",
                        "bulwark.bulkhead.slow-api.vlaue", "3",
                        "bulwark.enabled", "maybe",
                        "bulwark.bulkhead.legacy-api.value", "0",
                        "bulwark.bulkhead.legacy-api.waiting-time", "soon"),
                    "test",
                    500))
            .build();
    ClassLoader before = Thread.currentThread().getContextClassLoader();
    // a loader of its own, to which MicroProfile Config gives this config
    ClassLoader loader = new URLClassLoader(new URL[0], before);
    ConfigProviderResolver.instance().registerConfig(config, loader);
    Thread.currentThread().setContextClassLoader(loader);
    try {
      assertThatThrownBy(() -> WeldContainers.boot(Legacy.class, ZeroBulkhead.class))
          .isInstanceOf(DefinitionException.class)
          .hasMessageContaining(
              "'bulwark.stroe': Bulwark has no such key; did you mean 'bulwark.store'?")
          .hasMessageContaining("did you mean 'bulwark.bulkhead.slow-api.value'?")
          .hasMessageContaining("Invalid config key 'bulwark.enabled': 'maybe' is not a boolean")
          .hasMessageContaining(
              "member 'value' from config key 'bulwark.bulkhead.legacy-api.value'")
          .hasMessageContaining(
              "member 'waitingTime' from config key 'bulwark.bulkhead.legacy-api.waiting-time'")
          .hasMessageContaining(ZeroBulkhead.class.getName() + "#call");
    } finally {
      Thread.currentThread().setContextClassLoader(before);
      ConfigProviderResolver.instance().releaseConfig(config);
    }
  }

  @Test
  void namedKeyWithZeroFailsTheDeploymentNamingTheKey() {
    assertThatThrownBy(
            () ->
                WeldContainers.withContainer(
                    Map.of("bulwark.bulkhead.legacy-api.value", "0"), c -> null, Legacy.class))
        .isInstanceOf(DefinitionException.class)
        .hasMessageContaining(Legacy.class.getName() + "#call")
        .hasMessageContaining("'bulwark.bulkhead.legacy-api.value'");
  }

  @Test
  void unparsableWaitingTimeFailsTheDeploymentNamingTheKey() {
    assertThatThrownBy(
            () ->
                WeldContainers.withContainer(
                    Map.of("bulwark.bulkhead.legacy-api.waiting-time", "abc"),
                    c -> null,
                    Legacy.class))
        .isInstanceOf(DefinitionException.class)
        .hasMessageContaining(Legacy.class.getName() + "#call")
        .hasMessageContaining("member 'waitingTime'")
        .hasMessageContaining("'bulwark.bulkhead.legacy-api.waiting-time'")
        .hasMessageContaining("'abc' is not a duration");
  }

  @Test
  void nameWithSpacesFailsTheDeployment() {
    assertThatThrownBy(() -> WeldContainers.withContainer(Map.of(), c -> null, SpacedName.class))
        .isInstanceOf(DefinitionException.class)
        .hasMessageContaining(SpacedName.class.getName() + "#call")
        .hasMessageContaining("member 'name' = 'partner api'");
  }

  @Test
  void ftStyleMethodKeyBeatsTheNamedKey() throws Exception {
    int entered =
        WeldContainers.withContainer(
            Map.of(
                "bulwark.bulkhead.legacy-api.value",
                "3",
                Legacy.class.getName() + "/call/DistributedBulkhead/value",
                "2"),
            c -> concurrentEntries(c.select(Legacy.class).get(), 6),
            Legacy.class);
    assertThat(entered).isEqualTo(2);
  }

  @Test
  void namedKeyBeatsTheAnnotation() throws Exception {
    int entered =
        WeldContainers.withContainer(
            Map.of("bulwark.bulkhead.legacy-api.value", "3"),
            c -> concurrentEntries(c.select(Legacy.class).get(), 6),
            Legacy.class);
    assertThat(entered).isEqualTo(3);
  }

  @Test
  void disabledByFtStyleGlobalKeyLetsEveryCallThrough() throws Exception {
    int entered =
        WeldContainers.withContainer(
            Map.of("DistributedBulkhead/enabled", "false"),
            c -> concurrentEntries(c.select(Legacy.class).get(), 7),
            Legacy.class);
    assertThat(entered).isEqualTo(7);
  }

  /**
   * Starts {@code callers} calls that block inside until released; waits until each has either
   * entered or been rejected; returns how many entered.
   */
  private static int concurrentEntries(Legacy bean, int callers) {
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    AtomicInteger rejected = new AtomicInteger();
    try {
      for (int i = 0; i < callers; i++) {
        pool.submit(
            () -> {
              try {
                return bean.call();
              } catch (BulkheadFullException e) {
                rejected.incrementAndGet();
                return "rejected";
              }
            });
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (bean.inside() + rejected.get() < callers && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(bean.inside() + rejected.get()).isEqualTo(callers);
      return bean.inside();
    } finally {
      bean.release();
      pool.shutdownNow();
    }
  }
}
