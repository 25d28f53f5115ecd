package dev.bulwark.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanBuilder;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build-compatible extension declares the limits unless the build's class path carries the
 * marker of a container's own Bulwark extension (Quarkus' bulwark-quarkus-deployment has it): then
 * it registers nothing. The container's side is quarkus/deployment's OneDeclarationPathTest.
 */
class BuildExtensionTakeOverTest {

  @TempDir Path classPath;

  @Test
  void withoutTheMarkerItRegistersTheDeclaredLimits() throws Exception {
    assertThat(registeredBeans(false)).containsExactly(DeclaredLimits.class.getName());
  }

  @Test
  void withTheMarkerItRegistersNothing() throws Exception {
    assertThat(registeredBeans(true)).isEmpty();
  }

  /** The beans the extension's synthesis adds, built under a class path with or without marker. */
  private List<String> registeredBeans(boolean marked) throws IOException {
    if (marked) {
      Path marker = classPath.resolve(BulwarkBuildExtension.TAKEN_OVER);
      Files.createDirectories(marker.getParent());
      Files.writeString(marker, "taken over");
    }
    List<String> added = new ArrayList<>();
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {classPath.toUri().toURL()}, before)) {
      thread.setContextClassLoader(loader);
      new BulwarkBuildExtension().register(recording(added));
    } finally {
      thread.setContextClassLoader(before);
    }
    return added;
  }

  /** Synthetic components that record each bean's class and accept any configuration of it. */
  private static SyntheticComponents recording(List<String> added) {
    SyntheticBeanBuilder<?> builder =
        (SyntheticBeanBuilder<?>)
            Proxy.newProxyInstance(
                BuildExtensionTakeOverTest.class.getClassLoader(),
                new Class<?>[] {SyntheticBeanBuilder.class},
                (proxy, method, args) -> proxy);
    return (SyntheticComponents)
        Proxy.newProxyInstance(
            BuildExtensionTakeOverTest.class.getClassLoader(),
            new Class<?>[] {SyntheticComponents.class},
            (proxy, method, args) -> {
              if (method.getName().equals("addBean")) {
                added.add(((Class<?>) args[0]).getName());
                return builder;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }
}
