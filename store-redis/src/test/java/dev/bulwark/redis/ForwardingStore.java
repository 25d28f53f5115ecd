package dev.bulwark.redis;

import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateStore;
import dev.bulwark.spi.StoreStatus;
import java.time.Duration;
import java.util.List;

/**
 * A store that forwards every call to another one, except the primitive a test watches: a test
 * wraps the real Redis store the engine opened and replaces its permits or its rates only. It does
 * not say it batches ({@link BulwarkStore#batches()} stays false), so the engine sends the watched
 * primitive single calls, one per operation, each on the caller's path, as the tests that use it
 * observe.
 */
final class ForwardingStore implements BulwarkStore {

  private final BulwarkStore store;
  private final PermitStore permits;
  private final RateStore rates;

  private ForwardingStore(BulwarkStore store, PermitStore permits, RateStore rates) {
    this.store = store;
    this.permits = permits;
    this.rates = rates;
  }

  static BulwarkStore withPermits(BulwarkStore store, PermitStore permits) {
    return new ForwardingStore(store, permits, store.rates());
  }

  static BulwarkStore withRates(BulwarkStore store, RateStore rates) {
    return new ForwardingStore(store, store.permits(), rates);
  }

  @Override
  public PermitStore permits() {
    return permits;
  }

  @Override
  public RateStore rates() {
    return rates;
  }

  @Override
  public LockStore locks() {
    return store.locks();
  }

  @Override
  public boolean leasesExpire() {
    return store.leasesExpire();
  }

  @Override
  public List<Lease> renew(List<Lease> leases) {
    return store.renew(leases);
  }

  @Override
  public Duration wakeUpCheckInterval() {
    return store.wakeUpCheckInterval();
  }

  @Override
  public StoreStatus status() {
    return store.status();
  }

  @Override
  public void probe() {
    store.probe();
  }

  @Override
  public Duration reconnectInterval() {
    return store.reconnectInterval();
  }

  @Override
  public void close() {
    store.close();
  }
}
