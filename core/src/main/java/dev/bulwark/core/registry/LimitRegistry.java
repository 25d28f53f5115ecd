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
import java.util.ArrayList;
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
  // one map per kind, so each hands out its own type: a name is unique within a kind only
  private final Map<String, BulkheadLimiter> bulkheads = new ConcurrentHashMap<>();
  private final Map<String, RateLimiter> rateLimiters = new ConcurrentHashMap<>();
  private final Map<String, KeyedLock> locks = new ConcurrentHashMap<>();

  public LimitRegistry(LimitCatalog catalog, LimitFactory factory) {
    this.catalog = catalog;
    this.factory = factory;
  }

  public LimitCatalog catalog() {
    return catalog;
  }

  /** Builds every declared limit now, so each is recorded in a shared store at startup. */
  public void buildAll() {
    catalog.limits().forEach(this::build);
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
    BulkheadLimiter built = bulkheads.get(name);
    if (built == null) {
      build(definitionOf(LimitKind.BULKHEAD, name));
      built = bulkheads.get(name);
    }
    return built;
  }

  public RateLimiter rateLimiter(String name) {
    RateLimiter built = rateLimiters.get(name);
    if (built == null) {
      build(definitionOf(LimitKind.RATE_LIMIT, name));
      built = rateLimiters.get(name);
    }
    return built;
  }

  public KeyedLock lock(String name) {
    KeyedLock built = locks.get(name);
    if (built == null) {
      build(definitionOf(LimitKind.LOCK, name));
      built = locks.get(name);
    }
    return built;
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
    List<Limit> all = new ArrayList<>(bulkheads.values());
    all.addAll(rateLimiters.values());
    all.addAll(locks.values());
    return all;
  }

  /**
   * The definition of that kind and name; a name nobody declared is declared for programmatic use.
   */
  private LimitDefinition definitionOf(LimitKind kind, String name) {
    return catalog
        .named(kind, name)
        .orElseGet(() -> catalog.declare(LimitDeclaration.programmatic(kind, name)));
  }

  /** Builds the limit {@code definition} describes, once per kind and name, into its kind's map. */
  private void build(LimitDefinition definition) {
    if (definition instanceof BulkheadDefinition bulkhead) {
      bulkheads.computeIfAbsent(bulkhead.name(), name -> factory.bulkhead(bulkhead));
    } else if (definition instanceof RateLimitDefinition rateLimit) {
      rateLimiters.computeIfAbsent(rateLimit.name(), name -> factory.rateLimiter(rateLimit));
    } else if (definition instanceof LockDefinition lock) {
      locks.computeIfAbsent(lock.name(), name -> factory.lock(lock));
    }
  }
}
