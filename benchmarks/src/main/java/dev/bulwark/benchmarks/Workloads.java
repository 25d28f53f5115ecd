package dev.bulwark.benchmarks;

import dev.bulwark.RateLimitExceededException;
import java.util.SplittableRandom;

/**
 * The calls that {@link Interleaved} repeats on many threads, by the names of the JMH variants: the
 * floors of a store, or {@link GuardedService}'s cases through the interceptors.
 */
public interface Workloads extends AutoCloseable {

  /** The call named {@code name} (a {@code …OneThread} name is the same call as without it). */
  Call call(String name);

  @Override
  void close();

  /** One call; {@code random} is the calling thread's own. */
  @FunctionalInterface
  interface Call {
    void call(SplittableRandom random);
  }

  /** {@link GuardedService}'s cases, called through the interceptors of {@code container}. */
  static Workloads guarded(GuardedContainer container) {
    GuardedService service = container.service();
    return new Workloads() {
      @Override
      public Call call(String name) {
        return switch (name.replace("OneThread", "")) {
          case "bulkhead" -> random -> service.bulkhead(0);
          case "writeLock" ->
              random -> service.writeLock("key-" + random.nextInt(GuardedService.LOCK_KEYS), 0);
          case "readMostly" ->
              random -> {
                if (random.nextInt(100) < 5) {
                  service.write("read-mostly", 0);
                } else {
                  service.read("read-mostly", 0);
                }
              };
          case "rateHot" -> random -> service.hotRate(0);
          case "rateTight" ->
              random -> {
                try {
                  service.tightRate(0);
                } catch (RateLimitExceededException rejected) {
                  // most calls: what this case measures
                }
              };
          default -> throw new IllegalArgumentException("no guarded case " + name);
        };
      }

      @Override
      public void close() {
        container.close();
      }
    };
  }
}
