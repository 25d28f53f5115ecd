package dev.bulwark.cdi;

import dev.bulwark.core.config.DefinitionResolver;
import dev.bulwark.core.registry.LimitCatalog;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import jakarta.enterprise.inject.spi.DefinitionException;
import java.util.ArrayList;
import java.util.List;

/**
 * Quarkus: resolves, when the application starts, the declarations of the guarded classes the build
 * recorded; any invalid or conflicting one stops the start.
 */
public class DeclaredLimitsCreator implements SyntheticBeanCreator<DeclaredLimits> {

  static final String CLASSES = "classes";

  @Override
  public DeclaredLimits create(Instance<Object> lookup, Parameters params) {
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
    LimitCatalog catalog = new LimitCatalog(new DefinitionResolver(MpConfigLookup.current()));
    List<String> problems = catalog.declareAll(GuardedMethods.declarations(classes));
    if (!problems.isEmpty()) {
      throw new DefinitionException(String.join(System.lineSeparator(), problems));
    }
    return new DeclaredLimits(catalog);
  }
}
