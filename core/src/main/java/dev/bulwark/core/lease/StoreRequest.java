package dev.bulwark.core.lease;

import dev.bulwark.LockPermit;
import dev.bulwark.core.batch.BatchQueue;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.core.log.BulwarkLog;
import dev.bulwark.core.log.LogMessage;
import dev.bulwark.core.waiting.GrantSignal;
import dev.bulwark.core.waiting.QueuedRequest;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.StoreException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One call's request in the store, from its first ask to its one release: sent alone or through the
 * limit's batch queue, waited for as a {@link GrantSignal} while queued, then the permit or lock
 * the call holds. Its lease is kept alive while queued or held, and it is released in the store
 * exactly once, however often and from whichever thread it is closed. A release the store cannot
 * take is logged, not thrown: the lease reclaims it.
 */
public abstract class StoreRequest extends GrantSignal implements QueuedRequest.Queue, LockPermit {

  private static final BulwarkLog LOG = BulwarkLog.of(StoreRequest.class);
  private static final VarHandle CLOSED;

  static {
    try {
      CLOSED = MethodHandles.lookup().findVarHandle(StoreRequest.class, "closed", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final LeaseRenewer renewer;

  /** The limit's batch queue when the store batches; null when each operation is sent alone. */
  private final BatchQueue<Operation, Grant> queue;

  /**
   * Whether a release is posted to the batch queue rather than awaited ({@code bulwark.release}).
   */
  private final boolean postsReleases;

  private final LimitEvents events;
  private final Lease.Kind kind;
  private final String name;
  private final String key;

  /**
   * What the renewer keeps alive; null when the store's leases do not expire (nothing to renew).
   */
  private final Lease lease;

  @SuppressWarnings("unused") // written through CLOSED
  private volatile boolean closed;

  /**
   * {@link System#nanoTime()} when the acquire was sent: the lease cannot have begun in the store
   * before it. Read after the answer, which the acquiring thread or a completed future hands over.
   */
  private long askedAt;

  /**
   * @param renewer null when the store's leases do not expire
   * @param batch queue the limit's batch queue; null when the store does not batch
   * @param postsReleases whether a release goes to the batch queue without waiting for its answer
   * @param key the lock key; empty for a bulkhead permit
   */
  protected StoreRequest(
      long requestId,
      LeaseRenewer renewer,
      BatchQueue<Operation, Grant> queue,
      boolean postsReleases,
      LimitEvents events,
      Lease.Kind kind,
      String name,
      String key,
      long leaseMillis) {
    super(requestId, renewer == null ? 0 : leaseMillis);
    this.renewer = renewer;
    this.queue = queue;
    this.postsReleases = postsReleases;
    this.events = events;
    this.kind = kind;
    this.name = name;
    this.key = key;
    this.lease = renewer == null ? null : new Lease(kind, name, key, requestId, leaseMillis);
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String key() {
    return key;
  }

  @Override
  protected final String group() {
    return kind + ":" + name + "\u0000" + key;
  }

  /**
   * Starts renewing the lease, when the store's leases expire; a no-op when already renewed. A
   * queued request is kept alive too, so the queue of a store shared by several JVMs drops the
   * waiters of a JVM that died instead of handing them permits.
   */
  @Override
  public final void keepAlive() {
    if (renewer != null) {
      renewer.track(lease, events, askedAt);
    }
  }

  @Override
  public final void stopKeepingAlive() {
    if (renewer != null) {
      renewer.untrack(requestId);
    }
  }

  /** Releases, the first time only; the lease is renewed until the release is answered. */
  @Override
  public void close() {
    if (!CLOSED.compareAndSet(this, false, true)) {
      return;
    }
    if (renewer != null) {
      renewer.releasing(requestId);
    }
    release();
  }

  /**
   * Releases in the store and stops renewing once the store answered. By default the caller waits
   * for that answer (in the limit's next batch when the store batches), so a call that starts after
   * this one ended, in any JVM, finds the permit free. With {@code bulwark.release=posted} the
   * release goes with the limit's next batch without the caller waiting, and what the store answers
   * is reported then: until the store applied it the permit counts as held there, which can leave
   * capacity unused for a round trip, never admit too many.
   */
  @Override
  public final void release() {
    CompletableFuture<Boolean> released;
    try {
      released = releaseInStore();
    } catch (RuntimeException e) {
      released = CompletableFuture.failedFuture(e);
    }
    if (released.isDone()) {
      // the failure first: getNow would throw it, out of the caller's call, instead of reporting it
      Throwable failure = failureOf(released);
      released(failure == null ? released.getNow(null) : null, failure);
    } else {
      released.whenComplete(this::released);
    }
  }

  private void released(Boolean released, Throwable failure) {
    stopKeepingAlive();
    report(released, failure);
  }

  private void report(Boolean released, Throwable failure) {
    if (failure == null) {
      if (!released) {
        events.expiredAtRelease(key);
        LOG.warn(LogMessage.RAN_UNGUARDED, describe());
      }
      return;
    }
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    if (cause instanceof StoreException) {
      events.storeFailed();
      LOG.warn(LogMessage.RELEASE_FAILED, cause, describe());
    } else if (cause instanceof RuntimeException runtime) {
      throw runtime;
    } else if (cause instanceof Error error) {
      throw error;
    }
  }

  private static Throwable failureOf(CompletableFuture<?> done) {
    if (!done.isCompletedExceptionally()) {
      return null;
    }
    try {
      done.join();
      return null;
    } catch (CompletionException e) {
      return e.getCause();
    }
  }

  /**
   * Releases in the store: waits for the answer, or posts the release to the limit's batch queue.
   *
   * @return completes with false when the store no longer held it
   */
  private CompletableFuture<Boolean> releaseInStore() {
    Operation release = Operation.release(key, requestId);
    if (postsReleases) {
      return post(release).thenApply(Grant::isGranted);
    }
    return CompletableFuture.completedFuture(call(release).isGranted());
  }

  @Override
  public final Grant request(boolean mayQueue) {
    askedAt = System.nanoTime();
    return call(acquisition(mayQueue));
  }

  @Override
  public final Grant poll() {
    return call(Operation.poll(key, requestId));
  }

  @Override
  public final Grant cancel() {
    return call(Operation.cancel(key, requestId));
  }

  @Override
  public final CompletableFuture<Grant> pollLater() {
    return post(Operation.poll(key, requestId));
  }

  @Override
  public final CompletableFuture<Grant> cancelLater() {
    return post(Operation.cancel(key, requestId));
  }

  /** The acquire this request sends. */
  protected abstract Operation acquisition(boolean mayQueue);

  /**
   * Sends one operation to the store as a single call, for a store that does not batch.
   *
   * @return its answer; a release answers GRANTED when released
   */
  protected abstract Grant sendAlone(Operation operation);

  /** Sends {@code operation} and waits for the answer: in the limit's batch queue, or alone. */
  private Grant call(Operation operation) {
    return queue == null ? sendAlone(operation) : queue.call(operation);
  }

  /**
   * Sends {@code operation} without waiting: posted to the limit's batch queue; without a batch
   * queue, sent alone here.
   */
  private CompletableFuture<Grant> post(Operation operation) {
    if (queue != null) {
      return queue.post(operation);
    }
    try {
      return CompletableFuture.completedFuture(sendAlone(operation));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** What is held, for log messages. */
  private String describe() {
    return events + (key.isEmpty() ? "" : " key '" + key + "'");
  }
}
