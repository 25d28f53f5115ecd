package dev.bulwark.fttck;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The configuration a bridge run gives each deployment: every MicroProfile FT {@code @Bulkhead}
 * made cluster-wide, on this run's store, under names no other deployment uses.
 *
 * <p>The TCK reuses bean classes (and so limit names) across its test classes, and a test may leave
 * permits or queued requests behind (a caller still blocked when the deployment stops). Each
 * deployment therefore gets a store space of its own: on Redis a key prefix made of a per-JVM run
 * id and the deployment's number, on JPA an H2 in-memory database of its own. Nothing one test
 * leaves reaches another, nor another run on the same Redis.
 */
final class BridgeConfig {

  /** Distinguishes this JVM's keys from those of any earlier or parallel run on the same Redis. */
  static final String RUN_ID = UUID.randomUUID().toString().substring(0, 8);

  private static final AtomicInteger DEPLOYMENTS = new AtomicInteger();

  private BridgeConfig() {}

  /** The keys for the next deployment of {@code testClass} in {@code run}. */
  static Map<String, String> forDeployment(TckRun run, Class<?> testClass) {
    int number = DEPLOYMENTS.incrementAndGet();
    Map<String, String> config = new LinkedHashMap<>();
    config.put("bulwark.fault-tolerance.bulkhead.distributed", "true");
    switch (run) {
      case BRIDGE_REDIS -> {
        config.put("bulwark.store", "redis");
        config.put("bulwark.redis.url", TckRedis.url());
        config.put("bulwark.redis.key-prefix", keyPrefix(number, testClass));
      }
      case BRIDGE_JPA -> {
        config.put("bulwark.store", "jpa");
        // kept while the JVM lives, so no pool shrinking to zero connections drops the tables
        config.put("bulwark.jpa.url", "jdbc:h2:mem:bulwark_tck_" + number + ";DB_CLOSE_DELAY=-1");
        config.put("bulwark.jpa.schema-generation", "create");
      }
      case PLAIN -> throw new IllegalArgumentException("the plain run has no Bulwark config");
    }
    return config;
  }

  /** {@code bulwark-tck:<run id>:<deployment number>-<test class>:}; no braces (hash tags). */
  static String keyPrefix(int number, Class<?> testClass) {
    return "bulwark-tck:" + RUN_ID + ":" + number + "-" + testClass.getSimpleName() + ":";
  }
}
