package dev.bulwark.tck.modelcheck;

import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import java.util.List;

/**
 * The one bulkhead or lock key a model check runs on, and its requests' operations through the
 * store's SPI: what every {@link StoreDriver} does the same way. A request's id in the store is its
 * position in the scenario plus one.
 */
public final class CheckedLimit {

  public static final String NAME = "checked";
  public static final String KEY = "k";

  private final Bounds bounds;
  private final PermitSpec permit;
  private final LockSpec lock;

  public CheckedLimit(Bounds bounds) {
    this.bounds = bounds;
    this.permit = new PermitSpec(NAME, bounds.limit(), bounds.leaseMillis());
    this.lock = new LockSpec(NAME, bounds.leaseMillis());
  }

  public Grant acquire(PermitStore permits, LockStore locks, int request) {
    return bounds.isLock()
        ? locks.acquire(lock, KEY, mode(request), id(request), true)
        : permits.acquire(permit, id(request), true);
  }

  public Grant poll(PermitStore permits, LockStore locks, int request) {
    return bounds.isLock() ? locks.poll(lock, KEY, id(request)) : permits.poll(permit, id(request));
  }

  public Grant cancel(PermitStore permits, LockStore locks, int request) {
    return bounds.isLock()
        ? locks.cancel(lock, KEY, id(request))
        : permits.cancel(permit, id(request));
  }

  public boolean release(PermitStore permits, LockStore locks, int request) {
    return bounds.isLock()
        ? locks.release(lock, KEY, id(request))
        : permits.release(permit, id(request));
  }

  /** Applies {@code entries} as one batch through the store's batch call. */
  public List<Grant> apply(PermitStore permits, LockStore locks, List<BatchEntry> entries) {
    List<Operation> operations = entries.stream().map(this::operation).toList();
    List<Grant> answers =
        bounds.isLock() ? locks.apply(lock, operations) : permits.apply(permit, operations);
    if (answers.size() != entries.size()) {
      throw new IllegalStateException(
          "a batch of " + entries.size() + " operations got " + answers.size() + " answers");
    }
    return answers;
  }

  /**
   * How many steps the store's batch call makes: one when the store applies a batch itself (it
   * overrides the SPI's {@code apply}, which promises one atomic step for a bulkhead, and for the
   * keys of a lock name that live together), one per operation for the SPI's default.
   */
  public int batchSteps(PermitStore permits, LockStore locks, List<BatchEntry> entries) {
    return overridesApply(bounds.isLock() ? locks : permits) ? 1 : entries.size();
  }

  private boolean overridesApply(Object store) {
    Class<?> spi = bounds.isLock() ? LockStore.class : PermitStore.class;
    Class<?> spec = bounds.isLock() ? LockSpec.class : PermitSpec.class;
    try {
      return store.getClass().getMethod("apply", spec, List.class).getDeclaringClass() != spi;
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(spi.getSimpleName() + " has no apply", e);
    }
  }

  private Operation operation(BatchEntry entry) {
    long id = id(entry.request());
    if (!bounds.isLock()) {
      return switch (entry.operation()) {
        case ACQUIRE -> Operation.acquire(id, true);
        case POLL -> Operation.poll("", id);
        case CANCEL -> Operation.cancel("", id);
        case RELEASE -> Operation.release("", id);
      };
    }
    return switch (entry.operation()) {
      case ACQUIRE -> Operation.acquire(KEY, mode(entry.request()), id, true);
      case POLL -> Operation.poll(KEY, id);
      case CANCEL -> Operation.cancel(KEY, id);
      case RELEASE -> Operation.release(KEY, id);
    };
  }

  /** The leases of {@code requests}, for one batch of renewal. */
  public List<Lease> leases(List<Integer> requests) {
    return requests.stream()
        .map(
            request ->
                new Lease(
                    bounds.isLock() ? Lease.Kind.LOCK : Lease.Kind.PERMIT,
                    NAME,
                    bounds.isLock() ? KEY : "",
                    id(request),
                    bounds.leaseMillis()))
        .toList();
  }

  /** The requests whose leases a renewal reported lost. */
  public static List<Integer> requests(List<Lease> lost) {
    return lost.stream().map(lease -> (int) lease.requestId() - 1).toList();
  }

  private static long id(int request) {
    return request + 1L;
  }

  private LockMode mode(int request) {
    return bounds.requests().get(request).kind() == Kind.WRITE ? LockMode.WRITE : LockMode.READ;
  }
}
