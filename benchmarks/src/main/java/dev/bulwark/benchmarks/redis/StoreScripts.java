package dev.bulwark.benchmarks.redis;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Redis store's scripts by the SHA-1 they are sent with ({@code EVALSHA}), so that a MONITOR
 * recording can say which script each call ran. The store is a runtime dependency only (the engine
 * finds it by {@link java.util.ServiceLoader}), so its script loader is reached by reflection; it
 * builds each script from the store's own resources, exactly as the store does.
 */
final class StoreScripts {

  /**
   * Script name by SHA-1: the permit and lock scripts, single and batch (with their libraries),
   * renew, define.
   */
  static Map<String, String> byHash() {
    Map<String, String> names = new HashMap<>();
    // the libraries each script is loaded with, in the store's order (its Scripts class)
    List<String> permitSteps =
        List.of("expiry", "given_up", "queue", "since", "permits", "permit_steps");
    for (String script :
        List.of(
            "permit_acquire", "permit_poll", "permit_cancel", "permit_release", "permit_batch")) {
      names.put(sha(script, permitSteps), script);
    }
    List<String> lockSteps = List.of("expiry", "given_up", "queue", "since", "locks", "lock_steps");
    for (String script :
        List.of("lock_acquire", "lock_poll", "lock_cancel", "lock_release", "lock_batch")) {
      names.put(sha(script, lockSteps), script);
    }
    names.put(sha("renew", List.of("expiry")), "renew");
    names.put(sha("define", List.of()), "define");
    return names;
  }

  private static String sha(String script, List<String> libraries) {
    try {
      Class<?> luaScript = Class.forName("dev.bulwark.redis.client.LuaScript");
      Object loaded =
          luaScript
              .getMethod("load", String.class, String[].class)
              .invoke(null, script, libraries.toArray(String[]::new));
      return (String) luaScript.getMethod("sha").invoke(loaded);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot load the Redis store's script " + script, e);
    }
  }

  private StoreScripts() {}
}
