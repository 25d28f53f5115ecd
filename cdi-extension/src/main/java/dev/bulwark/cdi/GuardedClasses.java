package dev.bulwark.cdi;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.DefinitionResolver;
import dev.bulwark.core.registry.LimitCatalog;
import jakarta.enterprise.inject.spi.DefinitionException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The bean classes that carry a Bulwark binding, declared as one: every guarded method's
 * declarations resolved into a catalog and checked with {@link GuardedSignatures}. The one entry
 * for containers that find the classes themselves (the build-compatible extension, Quarkus'
 * extension), so each applies the same rules.
 */
public final class GuardedClasses {

  private GuardedClasses() {}

  /**
   * What is wrong with the classes' declarations under {@code config}, one message per problem,
   * each naming the method (and the member or key): {@link ConfigLookup#empty()} finds what is
   * wrong whatever the config, as a build can.
   */
  public static List<String> problems(Collection<Class<?>> classes, ConfigLookup config) {
    LimitCatalog catalog = new LimitCatalog(new DefinitionResolver(config));
    return declare(catalog, classes);
  }

  /**
   * The declared limits of the named classes under the application's config, when it starts.
   *
   * @param storeKeys every key of the stores the runtime knows, checked with the others
   * @throws DefinitionException naming every invalid or conflicting declaration, and every {@code
   *     bulwark.*} key nobody reads
   * @throws IllegalStateException when a class recorded at build time cannot be loaded
   */
  public static DeclaredLimits declared(
      Collection<String> classNames, ClassLoader loader, Set<String> storeKeys) {
    List<Class<?>> classes = new ArrayList<>();
    for (String name : classNames) {
      try {
        classes.add(Class.forName(name, false, loader));
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(
            "Bulwark: guarded class " + name + " is gone at runtime", e);
      }
    }
    LimitCatalog catalog = new LimitCatalog(new DefinitionResolver(MpConfigLookup.current()));
    List<String> problems = new ArrayList<>(SettingProblems.current(storeKeys));
    problems.addAll(declare(catalog, classes));
    if (!problems.isEmpty()) {
      throw new DefinitionException(report(problems));
    }
    return new DeclaredLimits(catalog);
  }

  /** One message for every problem of a start, one line each. */
  static String report(List<String> problems) {
    return problems.size() == 1
        ? problems.get(0)
        : "Bulwark cannot start; every problem of its configuration and declarations:"
            + System.lineSeparator()
            + String.join(System.lineSeparator(), problems);
  }

  /** Declares every guarded method into {@code catalog}; what is wrong, one message each. */
  static List<String> declare(LimitCatalog catalog, Collection<Class<?>> classes) {
    List<String> problems =
        new ArrayList<>(catalog.declareAll(GuardedMethods.declarations(classes)));
    problems.addAll(GuardedSignatures.check(classes, catalog));
    return problems;
  }
}
