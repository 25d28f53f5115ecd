package dev.bulwark.core.engine;

import dev.bulwark.Bulwark;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.DefinitionResolver;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.local.LocalStore;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateSpec;
import dev.bulwark.spi.StoreContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * The engine of one application: the chosen store, the JVM's waiters and lease renewer, and the
 * factory of limiters. Build limiters once per definition and keep them; they hold everything the
 * hot path needs.
 */
public final class BulwarkEngine implements AutoCloseable {

  /** How often the renewer looks for leases that have used a third of their length. */
  static final long RENEW_TICK_MILLIS = 100;

  private final EngineSettings settings;
  private final DefinitionResolver resolver;
  private final BulwarkStore store;
  private final StoreAccess access;
  private final StoreAccess fallbackAccess;
  private final DefaultBulwark programmatic;

  private BulwarkEngine(ConfigLookup config, Collection<BulwarkStoreProvider> extraProviders) {
    this.settings = EngineSettings.from(config);
    this.resolver = new DefinitionResolver(config);
    Waiters waiters = new Waiters();
    BulwarkStoreProvider provider = provider(settings.storeId(), extraProviders);
    this.store = provider.open(context(config, waiters));
    LeaseRenewer renewer = store.leasesExpire() ? new LeaseRenewer(store, RENEW_TICK_MILLIS) : null;
    this.access = new StoreAccess(store, waiters, renewer, settings.failurePolicy());
    this.fallbackAccess =
        settings.failurePolicy() == FailurePolicy.LOCAL
            ? new StoreAccess(new LocalStore(waiters), waiters, null, FailurePolicy.FAIL_CLOSED)
            : null;
    this.programmatic = new DefaultBulwark(this);
  }

  /** Starts an engine on the store {@code bulwark.store} names, found by ServiceLoader. */
  public static BulwarkEngine start(ConfigLookup config) {
    return start(config, List.of());
  }

  /**
   * Starts an engine; {@code extraProviders} are stores found in the container (CDI beans) that
   * take precedence over ServiceLoader's.
   */
  public static BulwarkEngine start(
      ConfigLookup config, Collection<BulwarkStoreProvider> extraProviders) {
    return new BulwarkEngine(config, extraProviders);
  }

  public EngineSettings settings() {
    return settings;
  }

  public DefinitionResolver resolver() {
    return resolver;
  }

  public BulwarkStore store() {
    return store;
  }

  /** The queued requests of this JVM. */
  public Waiters waiters() {
    return access.waiters();
  }

  /** The lease renewer, when the store's leases expire. */
  public Optional<LeaseRenewer> leaseRenewer() {
    return Optional.ofNullable(access.renewer());
  }

  /** The programmatic API over this engine. */
  public Bulwark programmatic() {
    return programmatic;
  }

  public BulkheadLimiter bulkhead(BulkheadDefinition definition) {
    BulkheadLimiter fallback =
        fallbackAccess == null ? null : new BulkheadLimiter(definition, fallbackAccess, null);
    BulkheadLimiter limiter = new BulkheadLimiter(definition, access, fallback);
    PermitSpec spec = limiter.spec();
    DefinitionRecorder.record(
        "bulkhead '" + spec.name() + "'", spec.definition(), () -> store.permits().define(spec));
    return limiter;
  }

  public RateLimiter rateLimiter(RateLimitDefinition definition) {
    RateLimiter fallback =
        fallbackAccess == null ? null : new RateLimiter(definition, fallbackAccess, null);
    RateLimiter limiter = new RateLimiter(definition, access, fallback);
    RateSpec spec = limiter.spec();
    DefinitionRecorder.record(
        "rate limit '" + spec.name() + "'", spec.definition(), () -> store.rates().define(spec));
    return limiter;
  }

  public KeyedLock lock(LockDefinition definition) {
    KeyedLock fallback =
        fallbackAccess == null ? null : new KeyedLock(definition, fallbackAccess, null);
    return new KeyedLock(definition, access, fallback);
  }

  @Override
  public void close() {
    if (access.renewer() != null) {
      access.renewer().close();
    }
    store.close();
  }

  private static BulwarkStoreProvider provider(
      String id, Collection<BulwarkStoreProvider> extraProviders) {
    List<BulwarkStoreProvider> candidates = new ArrayList<>(extraProviders);
    ServiceLoader.load(BulwarkStoreProvider.class, BulwarkEngine.class.getClassLoader())
        .forEach(candidates::add);
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    if (context != null) {
      ServiceLoader.load(BulwarkStoreProvider.class, context).forEach(candidates::add);
    }
    return candidates.stream()
        .filter(p -> p.id().equals(id))
        .findFirst()
        .orElseThrow(
            () ->
                new InvalidDefinitionException(
                    "Invalid config key '"
                        + EngineSettings.STORE
                        + "': no store '"
                        + id
                        + "' on the classpath (found: "
                        + candidates.stream()
                            .map(BulwarkStoreProvider::id)
                            .distinct()
                            .collect(Collectors.joining(", "))
                        + "); add the module of that store, e.g. bulwark-redis"));
  }

  private static StoreContext context(ConfigLookup config, GrantListener listener) {
    return new StoreContext() {
      @Override
      public Optional<String> config(String key) {
        return config.get(key);
      }

      @Override
      public GrantListener grantListener() {
        return listener;
      }
    };
  }
}
