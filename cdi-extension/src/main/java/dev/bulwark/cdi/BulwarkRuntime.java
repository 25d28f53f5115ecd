package dev.bulwark.cdi;

import dev.bulwark.Bulwark;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.Origin;
import dev.bulwark.core.engine.BulkheadLimiter;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.engine.RateLimiter;
import dev.bulwark.spi.BulwarkStoreProvider;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.inject.Inject;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The application's engine, started from MicroProfile Config when the container starts, and the
 * per-method guard caches the interceptors read. Interceptors take the caches once, so their hot
 * path does not go through this bean's client proxy.
 */
@ApplicationScoped
public class BulwarkRuntime {

  @Inject @Any Instance<BulwarkStoreProvider> containerStores;

  private BulwarkEngine engine;
  private GuardCache<BulkheadLimiter> bulkheads;
  private GuardCache<RateLimiter> rateLimiters;
  private GuardCache<LockGuard> locks;

  @PostConstruct
  void start() {
    try {
      engine = BulwarkEngine.start(MpConfigLookup.current(), containerStores.stream().toList());
    } catch (InvalidDefinitionException e) {
      throw new DefinitionException(e.getMessage(), e);
    }
    bulkheads =
        new GuardCache<>(
            resolving(
                DistributedBulkhead.class,
                (origin, binding) -> engine.resolver().bulkhead(origin, binding),
                (definition, method) -> engine.bulkhead(definition)));
    rateLimiters =
        new GuardCache<>(
            resolving(
                DistributedRateLimit.class,
                (origin, binding) -> engine.resolver().rateLimit(origin, binding),
                (definition, method) -> engine.rateLimiter(definition)));
    locks =
        new GuardCache<>(
            resolving(
                DistributedLock.class,
                (origin, binding) -> engine.resolver().lock(origin, binding),
                (definition, method) ->
                    new LockGuard(
                        engine.lock(definition), definition.mode(), LockKeys.of(method))));
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

  GuardCache<BulkheadLimiter> bulkheads() {
    return bulkheads;
  }

  GuardCache<RateLimiter> rateLimiters() {
    return rateLimiters;
  }

  GuardCache<LockGuard> locks() {
    return locks;
  }

  /** Validates every guarded method of {@code classes}; returns the definitions, in order. */
  GuardedMethods.Scan scan(List<Class<?>> classes) {
    return GuardedMethods.scan(classes, engine.resolver());
  }

  /** How a definition is resolved from a binding, for one kind. */
  @FunctionalInterface
  interface Resolve<A, D> {
    D apply(Origin origin, A binding);
  }

  private <A extends java.lang.annotation.Annotation, D extends LimitDefinition, G>
      Function<InvocationContext, G> resolving(
          Class<A> binding, Resolve<A, D> resolve, BiFunction<D, Method, G> build) {
    return context -> {
      Method method = context.getMethod();
      BindingReader.Binding<A> found = BindingReader.find(context, binding);
      if (found == null || !engine.settings().enabled()) {
        return null;
      }
      D definition;
      try {
        definition = resolve.apply(found.origin(), found.annotation());
      } catch (InvalidDefinitionException e) {
        throw new DefinitionException(e.getMessage(), e);
      }
      return definition.enabled() ? build.apply(definition, method) : null;
    };
  }
}
