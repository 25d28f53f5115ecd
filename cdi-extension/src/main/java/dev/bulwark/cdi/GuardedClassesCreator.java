package dev.bulwark.cdi;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import java.util.ArrayList;
import java.util.List;

/** Turns the class names recorded at build time into classes, at runtime. */
public class GuardedClassesCreator implements SyntheticBeanCreator<GuardedClasses> {

  static final String CLASSES = "classes";

  @Override
  public GuardedClasses create(Instance<Object> lookup, Parameters params) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    List<Class<?>> classes = new ArrayList<>();
    for (String name : params.get(CLASSES, String[].class)) {
      try {
        classes.add(Class.forName(name, false, loader));
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(
            "Bulwark: guarded class " + name + " is gone at runtime", e);
      }
    }
    return new GuardedClasses(classes);
  }
}
