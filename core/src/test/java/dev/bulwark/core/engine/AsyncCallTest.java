package dev.bulwark.core.engine;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.BulkheadHandle;
import dev.bulwark.Bulwark;
import dev.bulwark.LockContext;
import dev.bulwark.LockHandle;
import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.Permit;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.RateLimiterHandle;
import dev.bulwark.tck.AsyncCrowd;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Asynchronous calls on the local store, through the programmatic API: admitted before their work
 * starts, holding their permit or lock until their stage completes, and waiting without a thread.
 */
@Timeout(30)
class AsyncCallTest {

  private final BulwarkEngine engine =
      Engines.local(
          Map.ofEntries(
              Map.entry("bulwark.bulkhead.crowd.value", "5"),
              Map.entry("bulwark.bulkhead.crowd.waiting-time", "60s"),
              Map.entry("bulwark.bulkhead.single.value", "1"),
              Map.entry("bulwark.bulkhead.single.waiting-time", "10s"),
              Map.entry("bulwark.bulkhead.other.value", "1"),
              Map.entry("bulwark.bulkhead.other.waiting-time", "10s"),
              Map.entry("bulwark.bulkhead.brief.value", "1"),
              Map.entry("bulwark.bulkhead.brief.waiting-time", "100ms"),
              Map.entry("bulwark.lock.accounts.waiting-time", "10s"),
              Map.entry("bulwark.lock.brief.waiting-time", "100ms"),
              Map.entry("bulwark.rate-limit.partner.value", "1"),
              Map.entry("bulwark.rate-limit.partner.window", "500ms"),
              Map.entry("bulwark.rate-limit.partner.waiting-time", "2s"),
              Map.entry("bulwark.rate-limit.strict.value", "1"),
              Map.entry("bulwark.rate-limit.strict.window", "1h")));
  private final Bulwark bulwark = engine.programmatic();

  @AfterEach
  void stop() {
    engine.close();
  }

  @Test
  void aThousandCallersOnABulkheadOfFiveWaitWithoutThreadsAndStartInOrder() throws Exception {
    AsyncCrowd.check(bulwark.bulkhead("crowd"), 5, 1_000, 4, Duration.ofSeconds(20));
  }

  @Test
  void waitedCallsOfTwoLimitsRunSideBySideAndNotOnABulwarkThread() throws Exception {
    BulkheadHandle single = bulwark.bulkhead("single");
    BulkheadHandle other = bulwark.bulkhead("other");
    CompletableFuture<String> release = new CompletableFuture<>();
    CompletableFuture<String> holdSingle = single.callAsync(() -> release).toCompletableFuture();
    CompletableFuture<String> holdOther = other.callAsync(() -> release).toCompletableFuture();

    CountDownLatch inside = new CountDownLatch(2);
    Callable<CompletionStage<String>> waited =
        () -> {
          String thread = Thread.currentThread().getName();
          inside.countDown();
          // a synchronous part that blocks: the other call comes inside meanwhile only if it
          // runs on a thread of its own
          boolean beside = inside.await(5, SECONDS);
          return CompletableFuture.completedFuture(thread + (beside ? "" : " (alone)"));
        };
    CompletableFuture<String> first = single.callAsync(waited).toCompletableFuture();
    CompletableFuture<String> second = other.callAsync(waited).toCompletableFuture();
    assertThat(first).isNotDone();
    assertThat(second).isNotDone();

    release.complete("released");
    holdSingle.get(5, SECONDS);
    holdOther.get(5, SECONDS);
    for (String ranOn : List.of(first.get(15, SECONDS), second.get(15, SECONDS))) {
      assertThat(ranOn).doesNotStartWith("bulwark").doesNotEndWith("(alone)");
    }
  }

  @Test
  void thePermitIsHeldUntilTheStageCompletesExceptionally() throws Exception {
    BulkheadHandle single = bulwark.bulkhead("single");
    CompletableFuture<String> work = new CompletableFuture<>();
    CompletableFuture<String> call = single.callAsync(() -> work).toCompletableFuture();

    assertThat(single.tryAcquire()).as("held while the work runs").isEmpty();
    IllegalStateException failure = new IllegalStateException("downstream broke");
    work.completeExceptionally(failure);

    assertThatThrownBy(call::join).hasCause(failure);
    Permit next = single.tryAcquire().orElseThrow(() -> new AssertionError("not released"));
    next.close();
  }

  @Test
  void aWorkThatThrowsBeforeReturningAStageReleasesAndFailsTheStage() {
    BulkheadHandle single = bulwark.bulkhead("single");
    IllegalArgumentException thrown = new IllegalArgumentException("bad input");
    CompletionStage<String> call =
        single.callAsync(
            () -> {
              throw thrown;
            });

    assertThatThrownBy(() -> call.toCompletableFuture().join()).hasCause(thrown);
    single.tryAcquire().orElseThrow(() -> new AssertionError("not released")).close();
  }

  @Test
  void cancellingTheCallersStageCancelsTheWorkAndReleases() {
    BulkheadHandle single = bulwark.bulkhead("single");
    CompletableFuture<String> work = new CompletableFuture<>();
    CompletableFuture<String> call = single.callAsync(() -> work).toCompletableFuture();
    assertThat(single.tryAcquire()).isEmpty();

    call.cancel(false);

    assertThat(work).as("the work's stage is cancelled too").isCancelled();
    single.tryAcquire().orElseThrow(() -> new AssertionError("not released")).close();
  }

  @Test
  void aWaitingCallerThatCancelsIsWithdrawnAndItsWorkNeverStarts() throws Exception {
    BulkheadHandle single = bulwark.bulkhead("single");
    Permit held = single.acquire();
    AtomicBoolean started = new AtomicBoolean();
    CompletableFuture<String> waiting =
        single
            .callAsync(
                () -> {
                  started.set(true);
                  return CompletableFuture.completedFuture("ran");
                })
            .toCompletableFuture();
    assertThat(engine.waiters().size()).isEqualTo(1);

    waiting.cancel(false);
    assertThat(engine.waiters().size()).as("withdrawn").isZero();
    held.close();

    Permit next = single.tryAcquire().orElseThrow(() -> new AssertionError("handed to a ghost"));
    next.close();
    assertThat(started).isFalse();
    assertThat(
            bulwark
                .bulkhead("single")
                .acquireAsync()
                .toCompletableFuture()
                .get(5, TimeUnit.SECONDS))
        .isNotNull();
  }

  @Test
  void aQueuedCallStartsOnlyWhenThePermitIsHandedOverAndTheCallerIsNotBlocked() throws Exception {
    BulkheadHandle single = bulwark.bulkhead("single");
    CompletableFuture<String> first = new CompletableFuture<>();
    CompletableFuture<String> firstCall = single.callAsync(() -> first).toCompletableFuture();
    AtomicBoolean secondStarted = new AtomicBoolean();
    CompletableFuture<String> secondCall =
        single
            .callAsync(
                () -> {
                  secondStarted.set(true);
                  assertThat(single.tryAcquire()).as("the second call holds the permit").isEmpty();
                  return CompletableFuture.completedFuture("second");
                })
            .toCompletableFuture();

    assertThat(secondStarted).as("returned to the caller while queued, nothing started").isFalse();
    first.complete("first");

    assertThat(firstCall.get(5, TimeUnit.SECONDS)).isEqualTo("first");
    assertThat(secondCall.get(5, TimeUnit.SECONDS)).isEqualTo("second");
    assertThat(secondStarted).isTrue();
    single.tryAcquire().orElseThrow(() -> new AssertionError("not released")).close();
  }

  @Test
  void aTimedOutWaitFailsTheStageWithTheSameExceptionAsTheSynchronousPath() throws Exception {
    BulkheadHandle brief = bulwark.bulkhead("brief");
    Permit held = brief.acquire();
    AtomicBoolean started = new AtomicBoolean();

    CompletableFuture<String> call =
        brief
            .callAsync(
                () -> {
                  started.set(true);
                  return CompletableFuture.completedFuture("ran");
                })
            .toCompletableFuture();
    Throwable async = failureOf(call);
    Throwable sync = failureOf(() -> brief.acquire());

    assertThat(async).isInstanceOf(BulkheadFullException.class);
    assertThat(async).hasMessage(sync.getMessage());
    assertThat(started).isFalse();
    assertThat(engine.waiters().size()).isZero();
    held.close();
    assertThat(engine.registry().bulkhead("brief").stats().rejected()).isEqualTo(2);
  }

  @Test
  void aLockIsHeldUntilTheStageCompletesAndShownWhileTheWorkIsInvoked() throws Exception {
    LockHandle accounts = bulwark.lock("accounts");
    CompletableFuture<Long> work = new CompletableFuture<>();
    AtomicLong seenToken = new AtomicLong();
    CompletableFuture<Long> write =
        accounts
            .callAsync(
                "alice",
                LockMode.WRITE,
                () -> {
                  seenToken.set(LockContext.fencingToken());
                  return work;
                })
            .toCompletableFuture();
    assertThat(seenToken.get()).as("LockContext inside the work").isPositive();
    assertThat(LockContext.isHeld()).as("not left on the caller's thread").isFalse();

    assertThat(accounts.tryLock("alice", LockMode.READ)).as("held while the work runs").isEmpty();
    AtomicBoolean readerStarted = new AtomicBoolean();
    CompletableFuture<String> read =
        accounts
            .callAsync(
                "alice",
                LockMode.READ,
                () -> {
                  readerStarted.set(true);
                  return CompletableFuture.completedFuture("read");
                })
            .toCompletableFuture();
    assertThat(readerStarted).isFalse();

    work.complete(42L);
    assertThat(write.get(5, TimeUnit.SECONDS)).isEqualTo(42L);
    assertThat(read.get(5, TimeUnit.SECONDS)).isEqualTo("read");
    try (LockPermit free = accounts.tryLock("alice", LockMode.WRITE).orElseThrow()) {
      assertThat(free.fencingToken()).isGreaterThan(seenToken.get());
    }
  }

  @Test
  void aLockNotGrantedInTimeFailsWithLockTimeoutException() throws Exception {
    LockHandle brief = bulwark.lock("brief");
    // held asynchronously, so not by this thread (which would re-enter it)
    LockPermit held = brief.lockAsync("k", LockMode.WRITE).toCompletableFuture().get(5, SECONDS);
    Throwable async = failureOf(brief.lockAsync("k", LockMode.READ).toCompletableFuture());
    assertThat(async)
        .isInstanceOf(LockTimeoutException.class)
        .hasMessage(failureOf(() -> brief.lock("k", LockMode.READ)).getMessage());
    held.close();
    brief
        .tryLock("k", LockMode.WRITE)
        .orElseThrow(() -> new AssertionError("not released"))
        .close();
  }

  @Test
  void aRateLimitedCallIsAdmittedBeforeItsWorkStarts() throws Exception {
    RateLimiterHandle partner = bulwark.rateLimiter("partner"); // 1 per 500 ms, may wait 2 s
    long before = System.nanoTime();
    CompletableFuture<Long> first =
        partner
            .callAsync(() -> CompletableFuture.completedFuture(System.nanoTime()))
            .toCompletableFuture();
    AtomicLong secondStartedAt = new AtomicLong();
    CompletableFuture<Long> second =
        partner
            .callAsync(
                () -> {
                  secondStartedAt.set(System.nanoTime());
                  return CompletableFuture.completedFuture(secondStartedAt.get());
                })
            .toCompletableFuture();

    assertThat(first).isCompleted();
    assertThat(secondStartedAt.get()).as("returned before its slot, nothing started").isZero();
    assertThat(second.get(5, TimeUnit.SECONDS) - before)
        .as("the second call's work starts with its slot, a window after the first")
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
  }

  @Test
  void aRateLimitedCallBeyondItsWaitIsRejectedWithoutStarting() throws Exception {
    RateLimiterHandle strict = bulwark.rateLimiter("strict"); // 1 per hour, no wait
    strict.acquireAsync().toCompletableFuture().get(5, TimeUnit.SECONDS);
    AtomicBoolean started = new AtomicBoolean();

    Throwable async =
        failureOf(
            strict
                .callAsync(
                    () -> {
                      started.set(true);
                      return CompletableFuture.completedFuture("ran");
                    })
                .toCompletableFuture());

    assertThat(async).isInstanceOf(RateLimitExceededException.class);
    assertThat(((RateLimitExceededException) async).getRetryAfter()).isPositive();
    assertThat(started).isFalse();
  }

  @Test
  void callsStillWaitingWhenTheEngineClosesFailInsteadOfWaitingForever() throws Exception {
    BulwarkEngine closing =
        Engines.local(
            Map.of(
                "bulwark.bulkhead.b.value", "1",
                "bulwark.bulkhead.b.waiting-time", "1h",
                "bulwark.rate-limit.r.value", "1",
                "bulwark.rate-limit.r.window", "1h",
                "bulwark.rate-limit.r.waiting-time", "2h"));
    Bulwark api = closing.programmatic();
    api.bulkhead("b").acquire();
    api.rateLimiter("r").acquire();
    CompletableFuture<Permit> permit = api.bulkhead("b").acquireAsync().toCompletableFuture();
    CompletableFuture<Void> slot = api.rateLimiter("r").acquireAsync().toCompletableFuture();
    assertThat(permit).isNotDone();
    assertThat(slot).isNotDone();

    closing.close();

    assertThat(failureOf(permit)).hasMessageContaining("engine was closed while the call waited");
    assertThat(failureOf(slot)).hasMessageContaining("engine was closed while the call waited");
  }

  private static Throwable failureOf(CompletableFuture<?> stage) throws InterruptedException {
    try {
      stage.get(5, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (CancellationException | java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the stage did not fail", e);
    }
    throw new AssertionError("the stage completed normally");
  }

  private static Throwable failureOf(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      return e;
    }
    throw new AssertionError("the call did not fail");
  }
}
