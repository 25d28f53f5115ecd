package dev.bulwark.quarkus.config;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The keys of the stores as the config mapping declares them ({@link RedisConfig}, {@link
 * JpaConfig}): with them Bulwark checks {@code bulwark.redis.*} and {@code bulwark.jpa.*} keys
 * together with every other key of the start, as Quarkus would have done for the mapping alone.
 */
public final class StoreKeys {

  private StoreKeys() {}

  public static Set<String> of() {
    Set<String> keys = new TreeSet<>();
    collect("bulwark.redis.", RedisConfig.class, keys);
    collect("bulwark.jpa.", JpaConfig.class, keys);
    return keys;
  }

  /** A method is a key in the mapping's kebab case; one that returns a group is a prefix. */
  private static void collect(String prefix, Class<?> group, Set<String> keys) {
    for (Method method : group.getDeclaredMethods()) {
      if (method.isSynthetic() || method.isDefault() || method.getParameterCount() > 0) {
        continue;
      }
      String key = prefix + kebab(method.getName());
      Class<?> type = method.getReturnType();
      if (type == Optional.class || type == String.class || type.isPrimitive()) {
        keys.add(key);
      } else if (type.isInterface() && !Map.class.isAssignableFrom(type)) {
        collect(key + ".", type, keys);
      }
    }
  }

  private static String kebab(String name) {
    StringBuilder kebab = new StringBuilder();
    for (char c : name.toCharArray()) {
      if (Character.isUpperCase(c)) {
        kebab.append('-').append(Character.toLowerCase(c));
      } else {
        kebab.append(c);
      }
    }
    return kebab.toString();
  }
}
