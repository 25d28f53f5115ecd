package dev.bulwark.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedRateLimit;
import io.quarkus.builder.BuildContext;
import io.quarkus.builder.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceDirectoryBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ServiceProviderBuildItem;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URL;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the build registers for a native image, as the native build would receive it: read from the
 * build items of a real build of an application (no native compiler runs here). The probe step runs
 * in the build's class loader, the test in the application's: what the probe saw reaches the test
 * through system properties.
 */
class NativeRegistrationTest {

  private static final String SEEN = "native-registration-probe.";

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .withApplicationRoot(archive -> archive.addClasses(Quotes.class))
          .addBuildChainCustomizer(
              chain ->
                  chain
                      .addBuildStep(
                          new BuildStep() {
                            @Override
                            public void execute(BuildContext context) {
                              context
                                  .consumeMulti(NativeImageResourceDirectoryBuildItem.class)
                                  .forEach(item -> record("directory", item.getPath()));
                              context
                                  .consumeMulti(ServiceProviderBuildItem.class)
                                  .forEach(
                                      item ->
                                          item.providers()
                                              .forEach(
                                                  provider ->
                                                      record(
                                                          item.serviceDescriptorFile(), provider)));
                              context
                                  .consumeMulti(ReflectiveClassBuildItem.class)
                                  .forEach(
                                      item ->
                                          item.getClassNames()
                                              .forEach(
                                                  name ->
                                                      record(
                                                          "reflective",
                                                          name
                                                              + (item.isMethods() ? "+methods" : "")
                                                              + (item.isFields()
                                                                  ? "+fields"
                                                                  : ""))));
                              context.produce(new FeatureBuildItem("native-registration-probe"));
                            }
                          })
                      .consumes(NativeImageResourceDirectoryBuildItem.class)
                      .consumes(ServiceProviderBuildItem.class)
                      .consumes(ReflectiveClassBuildItem.class)
                      .produces(FeatureBuildItem.class)
                      .build());

  /** Adds {@code value} to what the probe saw of {@code kind}. */
  private static synchronized void record(String kind, String value) {
    String key = SEEN + kind;
    String before = System.getProperty(key);
    System.setProperty(key, before == null ? value : before + "," + value);
  }

  private static List<String> seen(String kind) {
    String values = System.getProperty(SEEN + kind);
    return values == null ? List.of() : Arrays.asList(values.split(","));
  }

  @Test
  void theLuaScriptsAreResourcesOfTheImage() {
    assertThat(seen("directory")).contains(NativeImageProcessor.LUA_SCRIPTS);
    URL script =
        Thread.currentThread()
            .getContextClassLoader()
            .getResource(NativeImageProcessor.LUA_SCRIPTS + "/permit_acquire.lua");
    assertThat(script).as("a script inside the registered directory").isNotNull();
  }

  @Test
  void everyStoreProviderIsRegistered() {
    assertThat(seen("META-INF/services/dev.bulwark.spi.BulwarkStoreProvider"))
        .contains(
            "dev.bulwark.core.local.LocalStoreProvider",
            "dev.bulwark.redis.RedisStoreProvider",
            "dev.bulwark.jpa.JpaStoreProvider");
    assertThat(seen("META-INF/services/dev.bulwark.engine.HeldLocks"))
        .contains("dev.bulwark.core.chain.ThreadLocks");
  }

  @Test
  void guardedClassesAndEntitiesAreReflective() {
    assertThat(seen("reflective")).contains(Quotes.class.getName() + "+methods");
    // by name: the build's classes are not the test's to read
    for (String entity :
        List.of(
            "dev.bulwark.jpa.entity.LimitRow",
            "dev.bulwark.jpa.entity.ClaimRow",
            "dev.bulwark.jpa.entity.RateGrantRow")) {
      assertThat(seen("reflective")).contains(entity + "+methods+fields");
    }
    assertThat(seen("reflective")).contains("io.vertx.core.Context+methods");
  }

  @ApplicationScoped
  public static class Quotes {
    @DistributedRateLimit(name = "quotes", value = 10)
    public String quote() {
      return "42";
    }
  }
}
