package dev.bulwark.cdi.rest;

import dev.bulwark.core.config.SettingReader;
import jakarta.ws.rs.ConstrainedTo;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;
import java.util.List;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Registers Bulwark's exception mappers with the Jakarta REST application, unless {@value
 * ProblemResponses#ENABLED_KEY} is {@code false}. Found by the runtime's {@code @Provider} scan
 * (Payara's Jersey scans the jars of {@code WEB-INF/lib}; Quarkus REST and RESTEasy its index); an
 * application that lists its providers itself registers this class.
 *
 * <p>The mappers carry no {@code @Provider} of their own, so that the switch decides: a mapper,
 * once registered, cannot decline an exception.
 */
@Provider
@ConstrainedTo(RuntimeType.SERVER)
public class ProblemResponsesFeature implements Feature {

  /** The mappers, in the order of the exceptions in the docs. */
  static final List<Class<?>> MAPPERS =
      List.of(
          BulkheadFullMapper.class,
          RateLimitExceededMapper.class,
          LockTimeoutMapper.class,
          StoreUnavailableMapper.class);

  @Override
  public boolean configure(FeatureContext context) {
    if (!enabled()) {
      return false;
    }
    for (Class<?> mapper : MAPPERS) {
      if (!context.getConfiguration().isRegistered(mapper)) {
        context.register(mapper, ProblemResponses.PRIORITY);
      }
    }
    return true;
  }

  /** The switch; a value that is not a boolean fails the application's start, naming the key. */
  static boolean enabled() {
    Config config = ConfigProvider.getConfig();
    return SettingReader.of(key -> config.getOptionalValue(key, String.class))
        .bool(ProblemResponses.ENABLED_KEY)
        .orElse(true);
  }
}
