package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadHandle;
import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.Bulwark;
import dev.bulwark.Holder;
import dev.bulwark.LockHandle;
import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.Permit;
import dev.bulwark.RateLimiterHandle;
import dev.bulwark.core.config.ConfigLookup;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The operator's view through the programmatic handles, on the local store. */
class InspectTest {

  private final BulwarkEngine engine =
      BulwarkEngine.start(
          ConfigLookup.of(
              Map.of(
                  "bulwark.bulkhead.reports.value", "2",
                  "bulwark.bulkhead.reports.waiting-time", "20s",
                  "bulwark.lock.ledger.waiting-time", "20s",
                  "bulwark.rate-limit.quotes", "3/1m")));
  private final Bulwark bulwark = engine.programmatic();

  @AfterEach
  void stop() {
    engine.close();
  }

  @Test
  void aBulkheadShowsItsHoldersQueueAndAvailablePermits() throws Exception {
    BulkheadHandle reports = bulwark.bulkhead("reports");
    assertThat(reports.inspect()).isEqualTo(new BulkheadSnapshot("reports", 2, List.of(), 0));

    Permit first = reports.acquire();
    assertThat(reports.inspect().available()).isEqualTo(1);
    Permit second = reports.acquire();
    CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> reports.acquire().close());
    await(() -> reports.inspect().queued() == 1);

    BulkheadSnapshot full = reports.inspect();
    assertThat(full.holders())
        .hasSize(2)
        .allSatisfy(
            h -> {
              assertThat(h.instance()).isEqualTo("local");
              assertThat(h.leaseExpiry()).as("local leases never expire").isEmpty();
            });
    assertThat(full.holders()).extracting(Holder::request).doesNotHaveDuplicates();
    assertThat(full.available()).isZero();

    first.close();
    waiter.get(20, TimeUnit.SECONDS);
    second.close();
    assertThat(reports.inspect()).isEqualTo(new BulkheadSnapshot("reports", 2, List.of(), 0));
  }

  @Test
  void aLockKeyShowsItsWriterReadersAndQueue() throws Exception {
    LockHandle ledger = bulwark.lock("ledger");
    LockPermit writer = ledger.lock("acct-1", LockMode.WRITE);
    CompletableFuture<Void> reader =
        CompletableFuture.runAsync(() -> ledger.lock("acct-1", LockMode.READ).close());
    await(() -> ledger.inspect("acct-1").queued() == 1);

    LockKeySnapshot written = ledger.inspect("acct-1");
    assertThat(written.writer()).get().extracting(Holder::instance).isEqualTo("local");
    assertThat(written.readers()).isEmpty();
    assertThat(ledger.inspect("acct-2"))
        .isEqualTo(new LockKeySnapshot("ledger", "acct-2", Optional.empty(), List.of(), 0));

    writer.close();
    reader.get(20, TimeUnit.SECONDS);
    try (LockPermit read = ledger.lock("acct-1", LockMode.READ)) {
      LockKeySnapshot readOnly = ledger.inspect("acct-1");
      assertThat(readOnly.writer()).isEmpty();
      assertThat(readOnly.readers()).hasSize(1);
      assertThat(readOnly.queued()).isZero();
    }
  }

  @Test
  void aRateLimitShowsThePermitsLeftWithoutTakingAny() {
    RateLimiterHandle quotes = bulwark.rateLimiter("quotes");
    assertThat(quotes.inspect().available()).isEqualTo(3);
    assertThat(quotes.inspect().available()).as("inspecting takes nothing").isEqualTo(3);

    assertThat(quotes.tryAcquire()).isTrue();
    assertThat(quotes.tryAcquire()).isTrue();
    assertThat(quotes.inspect().available()).isEqualTo(1);
    assertThat(quotes.inspect().limit()).isEqualTo(3);
    assertThat(quotes.tryAcquire()).isTrue();
    assertThat(quotes.inspect().available()).isZero();
    assertThat(quotes.tryAcquire()).isFalse();
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 20 s").isLessThan(deadline);
      Thread.sleep(2);
    }
  }
}
