package dev.bulwark.jpa.container;

import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.persistence.EntityManagerFactory;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The application's persistence units that the container offers as CDI beans: the default one, or a
 * named one, recognised by a qualifier named {@code PersistenceUnit} whose {@code value()} is the
 * unit's name (Quarkus' {@code @io.quarkus.hibernate.orm.PersistenceUnit("name")}). Beans are only
 * looked at, never created, until the one asked for is found: the container may hold units that are
 * switched off.
 */
final class PersistenceUnitBeans {

  private PersistenceUnitBeans() {}

  /** The unit named {@code name} (the default unit when null), or null when there is none. */
  static EntityManagerFactory find(BeanManager beans, String name) {
    Set<Bean<?>> candidates =
        beans.getBeans(EntityManagerFactory.class, Any.Literal.INSTANCE).stream()
            .filter(bean -> name == null ? isDefault(bean) : name.equals(unitName(bean)))
            .collect(Collectors.toSet());
    if (candidates.isEmpty()) {
      return null;
    }
    Bean<?> bean = beans.resolve(candidates);
    CreationalContext<?> context = beans.createCreationalContext(bean);
    return (EntityManagerFactory) beans.getReference(bean, EntityManagerFactory.class, context);
  }

  /** The names of the units the container offers, for messages; the default one as {@code name}. */
  static List<String> names(BeanManager beans, String defaultName) {
    return beans.getBeans(EntityManagerFactory.class, Any.Literal.INSTANCE).stream()
        .map(bean -> isDefault(bean) ? defaultName : unitName(bean))
        .filter(Objects::nonNull)
        .sorted()
        .toList();
  }

  private static boolean isDefault(Bean<?> bean) {
    return bean.getQualifiers().stream().anyMatch(q -> q.annotationType() == Default.class);
  }

  private static String unitName(Bean<?> bean) {
    for (Annotation qualifier : bean.getQualifiers()) {
      if (qualifier.annotationType().getSimpleName().equals("PersistenceUnit")) {
        try {
          Method value = qualifier.annotationType().getMethod("value");
          return String.valueOf(value.invoke(qualifier));
        } catch (ReflectiveOperationException e) {
          return null;
        }
      }
    }
    return null;
  }
}
