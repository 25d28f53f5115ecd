package dev.bulwark.cdi;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import java.util.List;

/**
 * CDI Lite: resolves, when the application starts, the declarations of the guarded classes the
 * build recorded; any invalid or conflicting one stops the start.
 */
public class DeclaredLimitsCreator implements SyntheticBeanCreator<DeclaredLimits> {

  static final String CLASSES = "classes";

  @Override
  public DeclaredLimits create(Instance<Object> lookup, Parameters params) {
    return GuardedClasses.declared(
        List.of(params.get(CLASSES, String[].class)),
        Thread.currentThread().getContextClassLoader(),
        StoreKeys.onClassPath());
  }
}
