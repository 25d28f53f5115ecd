package dev.bulwark.quarkus.deployment;

import dev.bulwark.engine.HeldLocks;
import dev.bulwark.spi.BulwarkStoreProvider;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceDirectoryBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ServiceProviderBuildItem;
import java.util.List;

/**
 * What a native image needs registered for Bulwark: the Redis store's Lua scripts (resources read
 * when the store starts), the store and lock-context implementations found by {@link
 * java.util.ServiceLoader}, the guarded classes (their methods' bindings are read by reflection
 * when the application starts), the JPA store's entities, and the Vert.x methods core calls through
 * method handles to keep off the event loop.
 */
class NativeImageProcessor {

  /** The Redis store's scripts, {@code lib/} included. */
  static final String LUA_SCRIPTS = "dev/bulwark/redis/scripts";

  static final List<String> SERVICES =
      List.of(
          BulwarkStoreProvider.class.getName(),
          HeldLocks.class.getName(),
          "dev.bulwark.event.BulwarkListener");

  static final List<String> JPA_ENTITIES =
      List.of(
          "dev.bulwark.jpa.entity.LimitRow",
          "dev.bulwark.jpa.entity.ClaimRow",
          "dev.bulwark.jpa.entity.RateGrantRow");

  /** Called through method handles by core's EventLoop, when Vert.x is there. */
  static final List<String> VERTX = List.of("io.vertx.core.Context", "io.vertx.core.Vertx");

  @BuildStep
  NativeImageResourceDirectoryBuildItem luaScripts() {
    return new NativeImageResourceDirectoryBuildItem(LUA_SCRIPTS);
  }

  @BuildStep
  void serviceProviders(BuildProducer<ServiceProviderBuildItem> providers) {
    SERVICES.forEach(
        service -> providers.produce(ServiceProviderBuildItem.allProvidersFromClassPath(service)));
  }

  @BuildStep
  void reflection(
      GuardedClassesBuildItem guarded, BuildProducer<ReflectiveClassBuildItem> reflective) {
    if (!guarded.names().isEmpty()) {
      reflective.produce(
          ReflectiveClassBuildItem.builder(guarded.names())
              .methods()
              .reason("Bulwark reads the bindings of guarded methods when the application starts")
              .build());
    }
    reflective.produce(
        ReflectiveClassBuildItem.builder(JPA_ENTITIES)
            .constructors()
            .methods()
            .fields()
            .weak()
            .reason("the JPA store's entities, mapped by the application's persistence unit")
            .build());
    reflective.produce(
        ReflectiveClassBuildItem.builder(VERTX)
            .methods()
            .weak()
            .reason("Bulwark looks up the current event loop through method handles")
            .build());
  }
}
