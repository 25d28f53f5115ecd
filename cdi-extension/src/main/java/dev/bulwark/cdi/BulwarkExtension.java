package dev.bulwark.cdi;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.core.config.DefinitionResolver;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.engine.EngineSettings;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The portable extension (Weld, Payara): collects the bean classes that carry a Bulwark binding and
 * fails the deployment, with a {@link DefinitionException} naming method, member and config key,
 * when any of their definitions is invalid.
 */
public class BulwarkExtension implements Extension {

  private final Set<Class<?>> guarded = new LinkedHashSet<>();

  void collect(
      @Observes
          @WithAnnotations({
            DistributedBulkhead.class,
            DistributedRateLimit.class,
            DistributedLock.class
          })
          ProcessAnnotatedType<?> type) {
    if (GuardedMethods.isGuardable(type.getAnnotatedType().getJavaClass())) {
      guarded.add(type.getAnnotatedType().getJavaClass());
    }
  }

  void validate(@Observes AfterBeanDiscovery discovery) {
    try {
      EngineSettings.from(MpConfigLookup.current());
      DefinitionResolver resolver = new DefinitionResolver(MpConfigLookup.current());
      GuardedMethods.scan(guarded, resolver)
          .problems()
          .forEach(problem -> discovery.addDefinitionError(new DefinitionException(problem)));
    } catch (InvalidDefinitionException e) {
      discovery.addDefinitionError(new DefinitionException(e.getMessage(), e));
    }
    discovery
        .addBean()
        .types(GuardedClasses.class, Object.class)
        .beanClass(GuardedClasses.class)
        .createWith(context -> new GuardedClasses(new ArrayList<>(guarded)));
  }
}
