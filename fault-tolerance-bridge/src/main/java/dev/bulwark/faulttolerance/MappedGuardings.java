package dev.bulwark.faulttolerance;

import dev.bulwark.cdi.MappedGuarding;
import dev.bulwark.cdi.MappedLimits;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.LimitKind;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How each limit the bridge mapped is run, by kind and name. On Weld and Payara this is the
 * bridge's {@link MappedLimits} bean: the portable bridge declared its limits while the container
 * deployed, so it adds no declaration and bound nothing at build time; it only tells Bulwark's
 * interceptors how to run what it mapped.
 */
final class MappedGuardings implements MappedLimits {

  private final Map<String, MappedGuarding> byLimit = new ConcurrentHashMap<>();

  void add(Mapped mapped) {
    LimitDeclaration declaration = mapped.declaration();
    byLimit.put(key(declaration.kind(), declaration.declaredName()), mapped.guarding());
  }

  @Override
  public MappedGuarding guarding(LimitDefinition definition) {
    return byLimit.get(key(definition.kind(), definition.name()));
  }

  @Override
  public Collection<LimitDeclaration> declarations(ConfigLookup config) {
    return List.of();
  }

  @Override
  public boolean bound(Class<?> beanClass, Method method, LimitKind kind) {
    return false;
  }

  private static String key(LimitKind kind, String name) {
    return kind + " " + name;
  }
}
