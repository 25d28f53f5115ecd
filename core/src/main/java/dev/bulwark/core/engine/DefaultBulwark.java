package dev.bulwark.core.engine;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.Bulwark;
import dev.bulwark.LockHandle;
import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.Permit;
import dev.bulwark.RateLimitSnapshot;
import dev.bulwark.RateLimiterHandle;
import dev.bulwark.core.registry.LimitRegistry;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The programmatic API: limits by name, looked up in the registry, so a name an annotation declares
 * is the same limit here; a name nobody declared is configured by its named keys.
 */
final class DefaultBulwark implements Bulwark {

  private final LimitRegistry registry;
  private final Map<String, BulkheadHandle> bulkheads = new ConcurrentHashMap<>();
  private final Map<String, RateLimiterHandle> rateLimiters = new ConcurrentHashMap<>();
  private final Map<String, LockHandle> locks = new ConcurrentHashMap<>();

  DefaultBulwark(LimitRegistry registry) {
    this.registry = registry;
  }

  @Override
  public BulkheadHandle bulkhead(String name) {
    return cached(bulkheads, name, n -> new Bulkhead(registry.bulkhead(n)));
  }

  @Override
  public RateLimiterHandle rateLimiter(String name) {
    return cached(rateLimiters, name, n -> new Rate(registry.rateLimiter(n)));
  }

  @Override
  public LockHandle lock(String name) {
    return cached(locks, name, n -> new Lock(registry.lock(n)));
  }

  private static <H> H cached(Map<String, H> handles, String name, Function<String, H> create) {
    H handle = handles.get(name);
    return handle != null ? handle : handles.computeIfAbsent(name, create);
  }

  private record Bulkhead(BulkheadLimiter limiter) implements BulkheadHandle {
    @Override
    public String name() {
      return limiter.definition().name();
    }

    @Override
    public <T> T call(Callable<T> work) throws Exception {
      Permit permit = limiter.acquire();
      try {
        return work.call();
      } finally {
        permit.close();
      }
    }

    @Override
    public Permit acquire() throws BulkheadFullException {
      return limiter.acquire();
    }

    @Override
    public Optional<Permit> tryAcquire() {
      return Optional.ofNullable(limiter.tryAcquire());
    }

    @Override
    public BulkheadSnapshot inspect() {
      return limiter.inspect();
    }

    @Override
    public CompletionStage<Permit> acquireAsync() {
      return limiter.acquireAsync(limiter.waitNanos());
    }

    @Override
    public <T> CompletionStage<T> callAsync(Callable<? extends CompletionStage<T>> work) {
      return limiter.callAsync(limiter.waitNanos(), work);
    }
  }

  private record Rate(RateLimiter limiter) implements RateLimiterHandle {
    @Override
    public String name() {
      return limiter.definition().name();
    }

    @Override
    public <T> T call(Callable<T> work) throws Exception {
      limiter.acquire();
      return work.call();
    }

    @Override
    public void acquire() {
      limiter.acquire();
    }

    @Override
    public boolean tryAcquire() {
      return limiter.tryAcquire();
    }

    @Override
    public RateLimitSnapshot inspect() {
      return limiter.inspect();
    }

    @Override
    public CompletionStage<Void> acquireAsync() {
      return limiter.acquireAsync(limiter.waitNanos());
    }

    @Override
    public <T> CompletionStage<T> callAsync(Callable<? extends CompletionStage<T>> work) {
      return limiter.callAsync(limiter.waitNanos(), work);
    }
  }

  private record Lock(KeyedLock lock) implements LockHandle {
    @Override
    public String name() {
      return lock.definition().name();
    }

    @Override
    public <T> T call(String key, LockMode mode, Callable<T> work) throws Exception {
      LockPermit permit = lock.lock(key, mode);
      try {
        return work.call();
      } finally {
        permit.close();
      }
    }

    @Override
    public LockPermit lock(String key, LockMode mode) {
      return lock.lock(key, mode);
    }

    @Override
    public Optional<LockPermit> tryLock(String key, LockMode mode) {
      return lock.tryLock(key, mode);
    }

    @Override
    public LockKeySnapshot inspect(String key) {
      return lock.inspect(key);
    }

    @Override
    public CompletionStage<LockPermit> lockAsync(String key, LockMode mode) {
      return lock.lockAsync(key, mode, lock.waitNanos());
    }

    @Override
    public <T> CompletionStage<T> callAsync(
        String key, LockMode mode, Callable<? extends CompletionStage<T>> work) {
      return lock.callAsync(key, mode, lock.waitNanos(), work);
    }
  }
}
