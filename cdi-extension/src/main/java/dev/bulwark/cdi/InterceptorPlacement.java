package dev.bulwark.cdi;

import dev.bulwark.core.config.ConfigLookup;
import java.util.HashMap;
import java.util.Map;

/**
 * The priority each Bulwark interceptor gets where a container fixes priorities at build time (CDI
 * Lite, Quarkus), by class name, as {@link Priorities} places them inside MicroProfile FT's.
 */
public final class InterceptorPlacement {

  private InterceptorPlacement() {}

  /**
   * By class name, since the build's view of a class is not a loaded class; empty when there is no
   * config to read at build time (FT's priority cannot have moved then either).
   */
  public static Map<String, Integer> byClassName() {
    ConfigLookup config;
    try {
      config = MpConfigLookup.current();
    } catch (IllegalStateException e) {
      return Map.of();
    }
    Map<String, Integer> byName = new HashMap<>();
    Priorities.inside(config).forEach((type, priority) -> byName.put(type.getName(), priority));
    return byName;
  }
}
