package dev.bulwark.cdi.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An application on Weld SE without Jakarta REST: Weld discovers bulwark-cdi's bean archive (the
 * classes directory with its {@code beans.xml}), which holds classes that implement {@code
 * jakarta.ws.rs} types. The container must start and serve Bulwark all the same. (Weld 5.1's
 * reflection discovery passes this without the {@code <scan><exclude>} of bulwark-cdi's {@code
 * beans.xml} too, skipping the classes it cannot load; the exclusion keeps them out of discovery
 * for containers and modes that would load them.)
 */
class WithoutJakartaRestTest {

  @Test
  void weldDiscoversBulwarkWithoutJakartaRestOnTheClassPath() throws Exception {
    List<URL> urls = new ArrayList<>();
    List<String> left = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.contains("jakarta.ws.rs-api")) {
        left.add(entry);
      } else {
        urls.add(Path.of(entry).toUri().toURL());
      }
    }
    assertThat(left).as("the test class path had Jakarta REST to leave out").isNotEmpty();

    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader loader =
        new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      assertThatThrownBy(() -> loader.loadClass("jakarta.ws.rs.ext.ExceptionMapper"))
          .isInstanceOf(ClassNotFoundException.class);
      Thread.currentThread().setContextClassLoader(loader);
      Class<?> weldClass = loader.loadClass("org.jboss.weld.environment.se.Weld");
      Object weld = weldClass.getConstructor().newInstance();
      // only the archives of this class path with a beans.xml: bulwark-cdi's among them
      Object container = weldClass.getMethod("initialize").invoke(weld);
      try {
        Method select = container.getClass().getMethod("select", Class.class, annotations());
        Object instance =
            select.invoke(
                container,
                loader.loadClass("dev.bulwark.Bulwark"),
                java.lang.reflect.Array.newInstance(
                    loader.loadClass("java.lang.annotation.Annotation"), 0));
        Object bulwark = instance.getClass().getMethod("get").invoke(instance);
        assertThat(bulwark).isNotNull();
      } finally {
        container.getClass().getMethod("shutdown").invoke(container);
      }
    } finally {
      Thread.currentThread().setContextClassLoader(previous);
    }
  }

  private static Class<?> annotations() {
    return java.lang.annotation.Annotation[].class;
  }
}
