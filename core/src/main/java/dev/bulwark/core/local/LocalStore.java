package dev.bulwark.core.local;

import dev.bulwark.Holder;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.spi.RateStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The default store: every limit enforced within this JVM, with the same semantics as the shared
 * stores (and MicroProfile Fault Tolerance's {@code @Bulkhead} for a synchronous method). Permits
 * live and die with the JVM, so nothing expires and nothing is renewed.
 */
public final class LocalStore implements BulwarkStore {

  private final LocalPermits permits;
  private final LocalRates rates = new LocalRates();
  private final LocalLocks locks;

  public LocalStore(GrantListener listener) {
    this.permits = new LocalPermits(listener);
    this.locks = new LocalLocks(listener);
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
    return locks;
  }

  @Override
  public boolean leasesExpire() {
    return false;
  }

  @Override
  public List<Lease> renew(List<Lease> leases) {
    return List.of();
  }

  @Override
  public Duration wakeUpCheckInterval() {
    return Duration.ZERO;
  }

  /** Holders of bulkhead {@code name} right now. */
  public int bulkheadHolders(String name) {
    return permits.holders(name);
  }

  /** Keys of lock {@code name} that hold state right now. */
  public int lockedKeys(String name) {
    return locks.liveKeys(name);
  }

  @Override
  public void close() {}

  /** The instance name the local store gives its holders: one JVM, no instance id needed. */
  static final String INSTANCE = "local";

  /** A holder of this JVM, whose lease never expires, granted at {@code sinceNanos}. */
  static Holder holder(long requestId, long sinceNanos) {
    return new Holder(
        INSTANCE, requestId, Optional.empty(), Optional.of(Instant.ofEpochSecond(0, sinceNanos)));
  }
}
