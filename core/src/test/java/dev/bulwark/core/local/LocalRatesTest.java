package dev.bulwark.core.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.RateSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The local store's rate limits under concurrent callers: each state replaced atomically. */
class LocalRatesTest {

  @Test
  void concurrentCallersTogetherGetExactlyTheLimit() throws Exception {
    LocalRates rates = new LocalRates();
    // an hour-long window: no grant expires while the test runs, so exactly 'value' are granted
    RateSpec spec =
        new RateSpec("shared", RateLimitType.ROLLING, 1000, Duration.ofHours(1).toNanos());
    int threads = 4;
    int callsEach = 2000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> granted = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        granted.add(
            pool.submit(
                () -> {
                  start.await();
                  int count = 0;
                  for (int i = 0; i < callsEach; i++) {
                    if (rates.reserve(spec, 0).granted()) {
                      count++;
                    }
                  }
                  return count;
                }));
      }
      start.countDown();
      int total = 0;
      for (Future<Integer> count : granted) {
        total += count.get(30, TimeUnit.SECONDS);
      }
      assertThat(total).isEqualTo(1000);
      assertThat(rates.reserve(spec, 0).granted()).isFalse();
    } finally {
      pool.shutdownNow();
    }
  }
}
