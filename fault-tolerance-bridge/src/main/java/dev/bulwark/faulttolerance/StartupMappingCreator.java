package dev.bulwark.faulttolerance;

import dev.bulwark.cdi.MappedLimits;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import java.util.ArrayList;
import java.util.List;

/** Quarkus: the {@link StartupMapping} of the classes {@link FaultToleranceBuildBridge} bound. */
public class StartupMappingCreator implements SyntheticBeanCreator<MappedLimits> {

  static final String CLASSES = "classes";

  @Override
  public MappedLimits create(Instance<Object> lookup, Parameters params) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    List<Class<?>> classes = new ArrayList<>();
    for (String name : params.get(CLASSES, String[].class)) {
      try {
        classes.add(Class.forName(name, false, loader));
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(
            "Bulwark: class " + name + " with a MicroProfile FT annotation is gone at runtime", e);
      }
    }
    return new StartupMapping(classes);
  }
}
