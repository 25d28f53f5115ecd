package dev.bulwark.faulttolerance;

import dev.bulwark.core.config.DefinitionResolver;
import dev.bulwark.core.config.InvalidDefinitionException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The name of a mapped limit. MicroProfile FT keeps one bulkhead (and SmallRye one rate limit) per
 * bean class and method, so the cluster-wide limit is named after the bean class, not the class
 * that declares the method (two beans inheriting one annotated method get two limits), and carries
 * the parameter types (overloads get one each): {@code
 * com.acme.Billing#charge(java.lang.String,int)}.
 */
final class MappedNames {

  private MappedNames() {}

  static String of(Class<?> beanClass, Method method) {
    String full = name(beanClass, method, Class::getTypeName);
    if (DefinitionResolver.isValidName(full)) {
      return full;
    }
    // long parameter types: simple names still tell overloads apart in all but contrived cases
    String shorter = name(beanClass, method, Class::getSimpleName);
    if (DefinitionResolver.isValidName(shorter)) {
      return shorter;
    }
    throw new InvalidDefinitionException(
        "Cannot make the fault tolerance annotation on "
            + full
            + " cluster-wide: its limit would be named '"
            + shorter
            + "', which is not a valid Bulwark name (at most 200 characters of letters, digits and"
            + " _.:#$(),[]-). Keep it per JVM with "
            + method.getDeclaringClass().getName()
            + "/"
            + method.getName()
            + "/Bulkhead/distributed=false (or /RateLimit/distributed=false)");
  }

  private static String name(
      Class<?> beanClass, Method method, Function<Class<?>, String> typeName) {
    return beanClass.getName()
        + "#"
        + method.getName()
        + Arrays.stream(method.getParameterTypes())
            .map(typeName)
            .collect(Collectors.joining(",", "(", ")"));
  }
}
