package dev.bulwark.quarkus.config;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithName;
import io.smallrye.config.WithParentName;
import java.util.Map;

/**
 * Every key under {@code bulwark.bulkhead.}, {@code bulwark.rate-limit.} and {@code bulwark.lock.},
 * whole: a limit's default name ({@code com.acme.Billing#charge}) holds dots, which a map of groups
 * ({@link BulwarkConfig#bulkhead()}) takes only quoted, while Bulwark reads the key as written.
 * This mapping accepts such keys, so Quarkus does not refuse them; {@link BulwarkConfig} still
 * documents the members, and Bulwark checks every {@code bulwark.*} key when the application
 * starts.
 */
@ConfigMapping(prefix = "bulwark")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface NamedLimitKeys {

  /** Every {@code bulwark.bulkhead.*} key, by what follows the prefix. */
  @WithName("bulkhead")
  Map<String, String> bulkheadKeys();

  /** Every {@code bulwark.rate-limit.*} key, by what follows the prefix. */
  @WithName("rate-limit")
  Map<String, String> rateLimitKeys();

  /** Every {@code bulwark.lock.*} key, by what follows the prefix. */
  @WithName("lock")
  Map<String, String> lockKeys();

  /**
   * Every {@code bulwark.*} key, by what follows the prefix: so that Quarkus refuses none of them
   * on its own, and Bulwark reports every key nobody reads together with every other mistake of the
   * start, in one failure, rather than Quarkus the first kind and Bulwark the rest on the next
   * start.
   */
  @WithParentName
  Map<String, String> allKeys();
}
