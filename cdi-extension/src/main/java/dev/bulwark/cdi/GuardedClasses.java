package dev.bulwark.cdi;

import java.util.List;

/**
 * The bean classes that carry a Bulwark binding, as the container's extension saw them at
 * deployment (Weld: the portable extension; Quarkus: the build-compatible extension at build time).
 * A synthetic bean, so that the startup check works the same on both.
 */
public final class GuardedClasses {

  private final List<Class<?>> classes;

  public GuardedClasses(List<Class<?>> classes) {
    this.classes = List.copyOf(classes);
  }

  public List<Class<?>> classes() {
    return classes;
  }
}
