package dev.bulwark.cdi;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.core.config.DefinitionResolver;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.registry.LimitCatalog;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The portable extension (Weld, Payara): collects the bean classes that carry a Bulwark binding and
 * resolves every declaration once, while the container deploys; invalid or conflicting ones, and
 * {@code bulwark.*} keys nobody reads, fail the deployment with one {@link DefinitionException}
 * naming each, with its method, member and config key.
 */
public class BulwarkExtension implements Extension {

  private final Set<Class<?>> guarded = new LinkedHashSet<>();
  private final List<LimitDeclaration> mapped = new ArrayList<>();

  /**
   * Adds declarations that another extension mapped from annotations that are not Bulwark's (as
   * bulwark-fault-tolerance does for MicroProfile FT's {@code @Bulkhead}), before {@link
   * AfterBeanDiscovery}: they are resolved and checked together with the Bulwark annotations, so a
   * bad value or a name clash between both fails the deployment too. The extension also adds the
   * matching binding to each method, so the interceptor runs.
   */
  public void declareMapped(Collection<LimitDeclaration> declarations) {
    mapped.addAll(declarations);
  }

  /** Keeps Bulwark's interceptors inside MicroProfile FT's, wherever FT's priority was set. */
  void placeRateLimitInterceptor(@Observes ProcessAnnotatedType<RateLimitInterceptor> type) {
    placeInsideFaultTolerance(type);
  }

  void placeBulkheadInterceptor(@Observes ProcessAnnotatedType<BulkheadInterceptor> type) {
    placeInsideFaultTolerance(type);
  }

  void placeLockInterceptor(@Observes ProcessAnnotatedType<LockInterceptor> type) {
    placeInsideFaultTolerance(type);
  }

  private static void placeInsideFaultTolerance(ProcessAnnotatedType<?> type) {
    int priority =
        Priorities.inside(MpConfigLookup.current()).get(type.getAnnotatedType().getJavaClass());
    if (priority != type.getAnnotatedType().getAnnotation(Priority.class).value()) {
      type.configureAnnotatedType()
          .remove(annotation -> annotation instanceof Priority)
          .add(Priorities.literal(priority));
    }
  }

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

  void declare(@Observes AfterBeanDiscovery discovery) {
    LimitCatalog catalog = new LimitCatalog(new DefinitionResolver(MpConfigLookup.current()));
    List<String> problems = new ArrayList<>(SettingProblems.current(StoreKeys.onClassPath()));
    problems.addAll(GuardedClasses.declare(catalog, guarded));
    problems.addAll(catalog.declareAll(mapped));
    if (!problems.isEmpty()) {
      // one error naming every problem: a container may report only the first of several
      discovery.addDefinitionError(new DefinitionException(GuardedClasses.report(problems)));
    }
    DeclaredLimits declared = new DeclaredLimits(catalog);
    discovery
        .addBean()
        .types(DeclaredLimits.class, Object.class)
        .beanClass(DeclaredLimits.class)
        .scope(Singleton.class)
        .createWith(context -> declared);
  }
}
