package dev.bulwark.core.engine;

import dev.bulwark.Bulwark;
import dev.bulwark.core.batch.Batches;
import dev.bulwark.core.chain.LimitChains;
import dev.bulwark.core.chain.StoreAccess;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.DefinitionResolver;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LockDefinition;
import dev.bulwark.core.config.RateLimitDefinition;
import dev.bulwark.core.event.Listeners;
import dev.bulwark.core.lease.LeaseRenewer;
import dev.bulwark.core.local.LocalStore;
import dev.bulwark.core.outage.OutageProbe;
import dev.bulwark.core.outage.OutageWatch;
import dev.bulwark.core.outage.StoreOutage;
import dev.bulwark.core.registry.LimitCatalog;
import dev.bulwark.core.registry.LimitRegistry;
import dev.bulwark.core.waiting.AsyncScheduler;
import dev.bulwark.core.waiting.Waiters;
import dev.bulwark.event.BulwarkListener;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.StoreContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The engine of one application: the chosen store, the JVM's waiters and lease renewer, the
 * registry of limits and the factory of their chains. Limits are built once, through {@link
 * #registry()}; they hold everything the hot path needs.
 */
public final class BulwarkEngine implements AutoCloseable {

  /** How long a closing engine waits for its batch queues to send what they hold. */
  private static final long CLOSE_FLUSH_SECONDS = 5;

  private final EngineSettings settings;
  private final BulwarkStore store;
  private final StoreAccess access;

  /** The batch batch queues of the limits; null when the store does not batch. */
  private final Batches batches;

  private final AsyncScheduler async = new AsyncScheduler();
  private final LimitFactory factory;
  private final OutageWatch outage;
  private final OutageProbe probe;
  private final LimitRegistry registry;
  private final DefaultBulwark programmatic;

  private BulwarkEngine(Builder builder) {
    ConfigLookup config = builder.config;
    this.settings = EngineSettings.from(config);
    Waiters waiters = new Waiters();
    BulwarkStoreProvider provider = provider(settings.storeId(), builder.stores);
    this.store = provider.open(context(config, waiters));
    LeaseRenewer renewer = store.leasesExpire() ? new LeaseRenewer(store, waiters) : null;
    this.batches =
        store.batches()
            ? new Batches(
                settings.batchMaxSize(),
                store.batchesInFlight(),
                task -> async.storeCalls().execute(task))
            : null;
    this.access =
        new StoreAccess(store, waiters, renewer, async, batches, settings.postsReleases());
    StoreAccess localAccess =
        settings.failurePolicy() == FailurePolicy.LOCAL
            ? new StoreAccess(new LocalStore(waiters), waiters, null, async, null, false)
            : null;
    BulwarkListener listener = Listeners.combine(builder.listeners);
    this.probe = new OutageProbe(store);
    this.outage = new OutageWatch(settings.storeId(), listener, probe);
    LimitChains chains =
        new LimitChains(access, localAccess, settings.failurePolicy(), listener, outage);
    this.factory = new LimitFactory(store, chains, async, renewer);
    LimitCatalog catalog =
        builder.catalog != null
            ? builder.catalog
            : new LimitCatalog(new DefinitionResolver(config));
    this.registry = new LimitRegistry(catalog, factory);
    this.programmatic = new DefaultBulwark(registry);
  }

  /** Starts an engine on the store {@code bulwark.store} names, found by ServiceLoader. */
  public static BulwarkEngine start(ConfigLookup config) {
    return builder(config).start();
  }

  /**
   * Starts an engine; {@code extraProviders} are stores found in the container (CDI beans) that
   * take precedence over ServiceLoader's.
   */
  public static BulwarkEngine start(
      ConfigLookup config, Collection<BulwarkStoreProvider> extraProviders) {
    return builder(config).stores(extraProviders).start();
  }

  public static Builder builder(ConfigLookup config) {
    return new Builder(config);
  }

  /** What an engine starts with besides its configuration. */
  public static final class Builder {

    private final ConfigLookup config;
    private final List<BulwarkStoreProvider> stores = new ArrayList<>();
    private final List<BulwarkListener> listeners = new ArrayList<>();
    private LimitCatalog catalog;

    private Builder(ConfigLookup config) {
      this.config = config;
    }

    /** Stores found in the container, taking precedence over ServiceLoader's. */
    public Builder stores(Collection<BulwarkStoreProvider> providers) {
      stores.addAll(providers);
      return this;
    }

    /** Listeners besides those ServiceLoader finds. */
    public Builder listeners(Collection<BulwarkListener> more) {
      listeners.addAll(more);
      return this;
    }

    /** The limits declared at deployment; by default an empty catalog on {@code config}. */
    public Builder catalog(LimitCatalog declared) {
      this.catalog = declared;
      return this;
    }

    public BulwarkEngine start() {
      return new BulwarkEngine(this);
    }
  }

  public EngineSettings settings() {
    return settings;
  }

  public DefinitionResolver resolver() {
    return registry.catalog().resolver();
  }

  /** The application's limits: look them up here, by method or by name. */
  public LimitRegistry registry() {
    return registry;
  }

  public BulwarkStore store() {
    return store;
  }

  /**
   * The outage the store is in, as calls found it (the last call failed to reach it); empty while
   * it answers, and again once it answers a call or the probe the engine sends it once per
   * reconnect interval during an outage. Always empty for the local store, which cannot be
   * unreachable.
   */
  public Optional<StoreOutage> outage() {
    return outage.current();
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

  /**
   * Builds a bulkhead for {@code definition}. The registry builds one per name; calling this builds
   * a second, independent limiter of the same name.
   */
  public BulkheadLimiter bulkhead(BulkheadDefinition definition) {
    return factory.bulkhead(definition);
  }

  /** Builds a rate limiter for {@code definition}; see {@link #bulkhead}. */
  public RateLimiter rateLimiter(RateLimitDefinition definition) {
    return factory.rateLimiter(definition);
  }

  /** Builds a keyed lock for {@code definition}; see {@link #bulkhead}. */
  public KeyedLock lock(LockDefinition definition) {
    return factory.lock(definition);
  }

  /**
   * Waits until the store operations this JVM started are sent and answered, at most {@code
   * timeout}: with {@code bulwark.release=posted}, the releases of calls that returned have then
   * reached the store, and their outcome has been reported. For a graceful shutdown or a test;
   * {@link #close()} does it too. Returns at once for a store that does not batch (its releases are
   * made by the call that ends).
   *
   * @return whether everything was sent within {@code timeout}
   */
  public boolean flush(java.time.Duration timeout) {
    return batches == null || batches.flush(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  @Override
  public void close() {
    probe.close();
    if (batches != null) {
      // releases posted by calls that ended are owed to the store: send them before it closes
      batches.flush(CLOSE_FLUSH_SECONDS, TimeUnit.SECONDS);
      batches.close();
    }
    async.close();
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
