package dev.bulwark.quarkus.config;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithName;
import java.util.Map;
import java.util.Optional;

/**
 * Bulwark's {@code bulwark.*} keys as Quarkus sees them: so that Quarkus reports a key it does not
 * know and generates their reference. Bulwark itself still reads every key through MicroProfile
 * Config, with its own checks and messages (naming method, member and key), and with the FT-style
 * keys ({@code <class>/<method>/DistributedBulkhead/value}), which live outside this prefix: every
 * value is therefore text here, and what each means, its default and its checks are in
 * docs/configuration.md, the one reference.
 */
@ConfigMapping(prefix = "bulwark")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface BulwarkConfig {

  /** The store that keeps the limits: {@code local} (the default), {@code redis}, {@code jpa}. */
  Optional<String> store();

  /** {@code false} makes every binding a pass-through. */
  Optional<String> enabled();

  /** What a call does while the store cannot be reached. */
  Optional<String> failurePolicy();

  /** Bulkheads by name. */
  Map<String, BulkheadConfig> bulkhead();

  /** Rate limits by name. */
  @WithName("rate-limit")
  Map<String, RateLimitConfig> rateLimit();

  /** Locks by name. */
  Map<String, LockConfig> lock();

  /** The Redis store. */
  RedisConfig redis();

  /** The JPA store. */
  JpaConfig jpa();

  /** The MicroProfile Fault Tolerance bridge. */
  FaultToleranceConfig faultTolerance();

  /**
   * The HTTP answers to rejections. Bulwark's build step reads this key while the application
   * builds (Quarkus REST takes exception mappers at build time); it is here so that Quarkus knows
   * it. A build-time root of the {@code bulwark} prefix would have Quarkus refuse every other
   * {@code bulwark.*} key at build time, which it checks against build-time roots only.
   */
  HttpConfig http();

  /** How a limit's store operations go in batches. */
  BatchConfig batch();

  /**
   * {@code awaited} (the default): a guarded call returns once its release reached the store;
   * {@code posted}: at once, the release following in the limit's next batch.
   */
  Optional<String> release();
}
