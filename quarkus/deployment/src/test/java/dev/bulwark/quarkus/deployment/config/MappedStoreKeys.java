package dev.bulwark.quarkus.deployment.config;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The keys a config mapping group declares, as Quarkus names them (kebab case, groups nested). */
final class MappedStoreKeys {

  private MappedStoreKeys() {}

  static Set<String> of(String prefix, Class<?> group) {
    Set<String> keys = new TreeSet<>();
    collect(prefix, group, keys);
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
