package dev.bulwark.core.registry;

import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.engine.BulkheadLimiter;
import dev.bulwark.core.engine.KeyedLock;
import dev.bulwark.core.engine.Limit;
import dev.bulwark.core.engine.LimitFactory;
import dev.bulwark.core.engine.RateLimiter;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The limits of one application, each built once from its catalog definition and kept by (kind,
 * name): an annotated method and the programmatic API that use one name share one limit. The
 * interceptors and the programmatic API only look limits up here.
 */
public final class LimitRegistry {

  private final LimitCatalog catalog;
  private final LimitFactory factory;
  private final Map<LimitCatalog.NameKey, Limit> limits = new ConcurrentHashMap<>();

  public LimitRegistry(LimitCatalog catalog, LimitFactory factory) {
    this.catalog = catalog;
    this.factory = factory;
  }

  public LimitCatalog catalog() {
    return catalog;
  }

  /** Builds every declared limit now, so each is recorded in a shared store at startup. */
  public void buildAll() {
    catalog.limits().forEach(this::limitOf);
  }

  /** The definition {@code method} of {@code beanClass} declares for {@code kind}, or null. */
  public LimitDefinition forMethod(Class<?> beanClass, Method method, LimitKind kind) {
    return catalog.forMethod(beanClass, method, kind);
  }

  /** Declares a method's binding that was not known at deployment (resolved now, once). */
  public LimitDefinition declare(LimitDeclaration declaration) {
    return catalog.declare(declaration);
  }

  /** The bulkhead of that name: the declared one, or one configured by its named keys. */
  public BulkheadLimiter bulkhead(String name) {
    return (BulkheadLimiter) limitOf(LimitKind.BULKHEAD, name);
  }

  public RateLimiter rateLimiter(String name) {
    return (RateLimiter) limitOf(LimitKind.RATE_LIMIT, name);
  }

  public KeyedLock lock(String name) {
    return (KeyedLock) limitOf(LimitKind.LOCK, name);
  }

  /** The limit a definition enforces: the one of its name. */
  public BulkheadLimiter bulkhead(BulkheadDefinition definition) {
    return bulkhead(definition.name());
  }

  public RateLimiter rateLimiter(RateLimitDefinition definition) {
    return rateLimiter(definition.name());
  }

  public KeyedLock lock(LockDefinition definition) {
    return lock(definition.name());
  }

  /** Every limit built so far, with its statistics. */
  public List<Limit> limits() {
    return List.copyOf(limits.values());
  }

  /** The limit of that kind and name; a name nobody declared is declared for programmatic use. */
  private Limit limitOf(LimitKind kind, String name) {
    Limit limit = limits.get(new LimitCatalog.NameKey(kind, name));
    if (limit != null) {
      return limit;
    }
    return limitOf(
        catalog
            .named(kind, name)
            .orElseGet(() -> catalog.declare(LimitDeclaration.programmatic(kind, name))));
  }

  private Limit limitOf(LimitDefinition definition) {
    LimitCatalog.NameKey key = new LimitCatalog.NameKey(definition.kind(), definition.name());
    Limit limit = limits.get(key);
    return limit != null ? limit : limits.computeIfAbsent(key, k -> factory.build(definition));
  }
}
