package dev.bulwark.cdi;

import dev.bulwark.Bulwark;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.registry.LimitRegistry;
import dev.bulwark.event.BulwarkListener;
import dev.bulwark.spi.BulwarkStoreProvider;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.inject.Inject;
import jakarta.interceptor.InvocationContext;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The application's engine, started from MicroProfile Config with the limits declared at deployment
 * and the application's listeners (beans implementing {@link BulwarkListener}, and the CDI
 * observers of Bulwark's events), and the per-method guard caches the interceptors read.
 * Interceptors take the caches once, so their hot path does not go through this bean's client
 * proxy.
 */
@ApplicationScoped
public class BulwarkRuntime {

  @Inject @Any Instance<BulwarkStoreProvider> containerStores;
  @Inject @Any Instance<BulwarkListener> listenerBeans;
  @Inject DeclaredLimits declared;
  @Inject @Any Instance<MappedLimits> mappingBeans;
  @Inject BeanManager beans;

  private List<MappedLimits> mappings;
  private BulwarkEngine engine;
  private GuardCache<BulkheadGuard> bulkheads;
  private GuardCache<RateGuard> rateLimiters;
  private GuardCache<LockGuard> locks;
  private AsyncResumption resumption;

  @PostConstruct
  void start() {
    mappings = mappingBeans.stream().toList();
    resumption = new AsyncResumption(beans);
    try {
      declareMapped();
      engine =
          BulwarkEngine.builder(MpConfigLookup.current())
              .stores(containerStores.stream().toList())
              .listeners(listenerBeans.stream().toList())
              .listeners(CdiEvents.forObservers(beans).stream().toList())
              .catalog(declared.catalog())
              .start();
      engine.registry().buildAll();
    } catch (InvalidDefinitionException e) {
      throw new DefinitionException(e.getMessage(), e);
    }
    LimitRegistry registry = engine.registry();
    ConfigLookup config = MpConfigLookup.current();
    bulkheads =
        new GuardCache<>(
            guarding(
                LimitKind.BULKHEAD,
                DistributedBulkhead.class,
                (definition, method) ->
                    new BulkheadGuard(
                        registry.bulkhead(definition.name()),
                        waitNanos(definition, method, config),
                        AsyncReturn.of(method),
                        mapped(definition))));
    rateLimiters =
        new GuardCache<>(
            guarding(
                LimitKind.RATE_LIMIT,
                DistributedRateLimit.class,
                (definition, method) ->
                    new RateGuard(
                        registry.rateLimiter(definition.name()),
                        waitNanos(definition, method, config),
                        AsyncReturn.of(method),
                        mapped(definition))));
    locks =
        new GuardCache<>(
            guarding(
                LimitKind.LOCK,
                DistributedLock.class,
                (definition, method) ->
                    new LockGuard(
                        registry.lock(definition.name()),
                        ((LockDefinition) definition).mode(),
                        LockKeys.of(method),
                        waitNanos(definition, method, config),
                        AsyncReturn.of(method))));
  }

  /**
   * The limits {@link MappedLimits} beans map from config now, with the declared ones: an invalid
   * or conflicting one stops the start, naming every problem.
   */
  private void declareMapped() {
    ConfigLookup config = MpConfigLookup.current();
    List<String> problems = new ArrayList<>();
    for (MappedLimits mapping : mappings) {
      problems.addAll(declared.catalog().declareAll(mapping.declarations(config)));
    }
    if (!problems.isEmpty()) {
      throw new InvalidDefinitionException(String.join(System.lineSeparator(), problems));
    }
  }

  @PreDestroy
  void stop() {
    engine.close();
  }

  /** The programmatic API, for {@code @Inject Bulwark}. */
  @Produces
  @ApplicationScoped
  Bulwark bulwark() {
    return engine.programmatic();
  }

  public BulwarkEngine engine() {
    return engine;
  }

  GuardCache<BulkheadGuard> bulkheads() {
    return bulkheads;
  }

  GuardCache<RateGuard> rateLimiters() {
    return rateLimiters;
  }

  GuardCache<LockGuard> locks() {
    return locks;
  }

  /** How the mapping that made {@code definition} wants it run; null for Bulwark's own limits. */
  private MappedGuarding mapped(LimitDefinition definition) {
    for (MappedLimits mapping : mappings) {
      MappedGuarding guarding = mapping.guarding(definition);
      if (guarding != null) {
        return guarding;
      }
    }
    return null;
  }

  /** How the interceptors start an asynchronous call that had to wait. */
  AsyncResumption resumption() {
    return resumption;
  }

  /**
   * The definition's waiting time, no longer than the method's Fault Tolerance timeout when FT runs
   * it asynchronously (see {@link CallerTimeout}).
   */
  private static long waitNanos(LimitDefinition definition, Method method, ConfigLookup config) {
    return CallerTimeout.bound(method, definition.waitingTime().toNanos(), config);
  }

  /**
   * The guard of an intercepted method: its definition looked up by bean class and method (the
   * nearest class of the proxy's hierarchy that declared it), then its limit by name. A binding the
   * deployment did not see (added by another extension) is declared now, once, unless a {@link
   * MappedLimits} added it and left the method unmapped.
   */
  private <G> Function<InvocationContext, G> guarding(
      LimitKind kind,
      Class<? extends Annotation> binding,
      BiFunction<LimitDefinition, Method, G> build) {
    return context -> {
      if (!engine.settings().enabled()) {
        return null;
      }
      LimitDefinition definition = declared(context, kind, binding);
      return definition == null || !definition.enabled()
          ? null
          : build.apply(definition, context.getMethod());
    };
  }

  private LimitDefinition declared(
      InvocationContext context, LimitKind kind, Class<? extends Annotation> binding) {
    Method method = context.getMethod();
    Class<?> targetClass =
        context.getTarget() == null ? method.getDeclaringClass() : context.getTarget().getClass();
    for (Class<?> c = targetClass; c != null && c != Object.class; c = c.getSuperclass()) {
      LimitDefinition found = engine.registry().forMethod(c, method, kind);
      if (found != null) {
        return found;
      }
      Class<?> beanClass = c;
      if (mappings.stream().anyMatch(mapping -> mapping.bound(beanClass, method, kind))) {
        return null; // bound for a mapping that left it unmapped: never a superclass's limit
      }
    }
    BindingReader.Binding<? extends Annotation> found = BindingReader.find(context, binding);
    if (found == null) {
      return null;
    }
    try {
      return engine
          .registry()
          .declare(
              LimitDeclaration.ofAnnotation(
                  targetClass, method, found.origin(), found.annotation()));
    } catch (InvalidDefinitionException e) {
      throw new DefinitionException(e.getMessage(), e);
    }
  }
}
