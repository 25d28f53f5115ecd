package dev.bulwark.core.registry;

import dev.bulwark.core.config.DefinitionResolver;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.LimitKind;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The definitions of an application's limits: every declaration resolved once, kept by (kind, name)
 * and by (bean class, method). One name is one limit, so two declarations of one name must agree on
 * the values the limit enforces (a bulkhead's value and lease, a rate limit's value, window and
 * type, a lock's lease); the waiting time and a lock's mode belong to each method.
 *
 * <p>Needs no engine: the CDI extension fills it while the container deploys, so an invalid or
 * conflicting declaration fails the deployment.
 */
public final class LimitCatalog {

  /** A method's declaration of one kind. */
  private record MethodKey(Class<?> beanClass, Method method, LimitKind kind) {}

  /** A limit's identity. */
  record NameKey(LimitKind kind, String name) {}

  private final DefinitionResolver resolver;
  private final Map<MethodKey, LimitDefinition> byMethod = new ConcurrentHashMap<>();
  private final Map<NameKey, LimitDefinition> byName = new ConcurrentHashMap<>();
  private final List<LimitDefinition> inOrder = new ArrayList<>();

  public LimitCatalog(DefinitionResolver resolver) {
    this.resolver = resolver;
  }

  /**
   * Resolves {@code declaration} and adds it; a method declared before is not resolved again.
   *
   * @throws InvalidDefinitionException when invalid, or when it conflicts with the limit of the
   *     same name declared elsewhere (naming both places and their values)
   */
  public synchronized LimitDefinition declare(LimitDeclaration declaration) {
    MethodKey method =
        declaration.method() == null
            ? null
            : new MethodKey(declaration.beanClass(), declaration.method(), declaration.kind());
    if (method != null && byMethod.containsKey(method)) {
      return byMethod.get(method);
    }
    LimitDefinition definition = resolver.resolve(declaration);
    if (definition.enabled()) {
      NameKey name = new NameKey(definition.kind(), definition.name());
      LimitDefinition first = byName.get(name);
      if (first == null) {
        byName.put(name, definition);
      } else if (!shared(first).equals(shared(definition))) {
        throw conflict(first, definition);
      }
    }
    if (method != null) {
      byMethod.put(method, definition);
    }
    inOrder.add(definition);
    return definition;
  }

  /**
   * Declares each; returns one message per invalid or conflicting declaration, so a deployment
   * reports all of them at once.
   */
  public List<String> declareAll(Collection<LimitDeclaration> declarations) {
    List<String> problems = new ArrayList<>();
    for (LimitDeclaration declaration : declarations) {
      try {
        declare(declaration);
      } catch (InvalidDefinitionException e) {
        problems.add(e.getMessage());
      }
    }
    return problems;
  }

  /** The definition {@code method} of {@code beanClass} declares for {@code kind}, or null. */
  public LimitDefinition forMethod(Class<?> beanClass, Method method, LimitKind kind) {
    return byMethod.get(new MethodKey(beanClass, method, kind));
  }

  /** The enabled limit of that kind and name, as first declared. */
  public Optional<LimitDefinition> named(LimitKind kind, String name) {
    return Optional.ofNullable(byName.get(new NameKey(kind, name)));
  }

  /** Every definition, in the order declared (disabled ones too), for the startup table. */
  public synchronized List<LimitDefinition> definitions() {
    return List.copyOf(inOrder);
  }

  /** The limits to build: one enabled definition per (kind, name). */
  Collection<LimitDefinition> limits() {
    return byName.values();
  }

  public DefinitionResolver resolver() {
    return resolver;
  }

  /** What every declaration of one name must agree on: the limit, not how one method uses it. */
  private static Map<String, String> shared(LimitDefinition definition) {
    Map<String, String> values = new LinkedHashMap<>(definition.values());
    values.remove("waitingTime");
    values.remove("mode");
    return values;
  }

  private static InvalidDefinitionException conflict(LimitDefinition first, LimitDefinition then) {
    return new InvalidDefinitionException(
        "Invalid @"
            + then.kind().annotationName()
            + " '"
            + then.name()
            + "': declared with different values on "
            + first.origin().describe()
            + " ("
            + describe(shared(first))
            + ") and on "
            + then.origin().describe()
            + " ("
            + describe(shared(then))
            + "). One name is one limit shared by every method that uses it: give both the same"
            + " values (e.g. with bulwark."
            + then.kind().configSegment()
            + "."
            + then.name()
            + ".<member>) or different names");
  }

  private static String describe(Map<String, String> values) {
    return values.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", "));
  }
}
