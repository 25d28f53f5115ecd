package dev.bulwark.cdi;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.LimitKind;
import java.lang.reflect.Method;
import java.util.Collection;

/**
 * Limits a build-compatible extension maps from annotations that are not Bulwark's, decided when
 * the application starts (Quarkus), as config cannot be read at build time. Such an extension adds
 * Bulwark's binding at build time to every method it may map and registers a synthetic bean of this
 * type; Bulwark's runtime declares what it maps when the application starts, with the declared
 * limits, and runs every other method it bound unguarded, not under a limit made from the binding's
 * defaults. (Portable extensions decide while the container deploys and use {@link
 * BulwarkExtension#declareMapped} instead.)
 */
public interface MappedLimits {

  /**
   * The limits it maps, read from {@code config} as it is when the application starts.
   *
   * @throws dev.bulwark.core.config.InvalidDefinitionException naming each method and config key
   *     that is invalid
   */
  Collection<LimitDeclaration> declarations(ConfigLookup config);

  /**
   * Whether it added the binding of {@code kind} to {@code method} of {@code beanClass} at build
   * time: a mapping decides per bean class, as an inherited method can be mapped in one subclass
   * and not in another.
   */
  boolean bound(Class<?> beanClass, Method method, LimitKind kind);

  /**
   * The methods of {@code beanClass} a container intercepts (not private, static, synthetic or
   * Object's), inherited ones included, the nearest declaration of each signature.
   */
  static Collection<Method> businessMethods(Class<?> beanClass) {
    return GuardedMethods.businessMethods(beanClass);
  }

  /**
   * How Bulwark runs {@code definition} when this mapping made it, so the mapped annotation's
   * runtime sees its rejections as its own; null when it did not make it.
   */
  default MappedGuarding guarding(LimitDefinition definition) {
    return null;
  }
}
