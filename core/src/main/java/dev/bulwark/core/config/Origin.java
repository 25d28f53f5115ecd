package dev.bulwark.core.config;

import java.lang.reflect.Method;

/**
 * Where a limit is declared: a bean method, or a name used through the programmatic API. Gives the
 * FT-style key prefixes and the text that error messages name.
 */
public record Origin(String className, String methodName) {

  public static Origin of(Class<?> type, Method method) {
    return new Origin(type.getName(), method.getName());
  }

  /** A limit taken by name through {@code dev.bulwark.Bulwark}: it has no FT-style keys. */
  public static Origin programmatic() {
    return new Origin(null, null);
  }

  public boolean isMethod() {
    return className != null;
  }

  public String describe() {
    return isMethod() ? className + "#" + methodName : "programmatic use";
  }
}
