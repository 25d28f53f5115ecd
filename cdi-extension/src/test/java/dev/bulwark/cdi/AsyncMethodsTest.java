package dev.bulwark.cdi;

import static dev.bulwark.cdi.WeldContainers.withContainer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.Bulwark;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockContext;
import dev.bulwark.LockKey;
import dev.bulwark.LockMode;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.tck.AsyncCrowd;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Guarded methods that return {@code CompletionStage}, {@code CompletableFuture} or {@code Uni},
 * through the interceptors on Weld: admitted without blocking, invoked once admitted, holding their
 * permit or lock until their result completes.
 */
@Timeout(60)
class AsyncMethodsTest {

  @ApplicationScoped
  public static class Gateway {

    private final AtomicInteger uniInvocations = new AtomicInteger();
    private final AtomicInteger singleInvocations = new AtomicInteger();

    public int singleInvocations() {
      return singleInvocations.get();
    }

    public int uniInvocations() {
      return uniInvocations.get();
    }

    @DistributedBulkhead(name = "async-crowd", value = 5, waitingTime = 60_000)
    public CompletionStage<Integer> crowd(Callable<CompletionStage<Integer>> work)
        throws Exception {
      return work.call();
    }

    @DistributedBulkhead(name = "async-single", value = 1, waitingTime = 100)
    public CompletableFuture<String> single(CompletableFuture<String> work) {
      singleInvocations.incrementAndGet();
      return work;
    }

    @DistributedLock(
        name = "async-accounts",
        waitingTime = 100,
        waitingTimeUnit = ChronoUnit.MILLIS)
    public CompletionStage<Long> write(@LockKey String account, CompletableFuture<Void> done) {
      long token = LockContext.fencingToken();
      return done.thenApply(ignored -> token);
    }

    @DistributedLock(
        name = "async-accounts",
        mode = LockMode.READ,
        waitingTime = 100,
        waitingTimeUnit = ChronoUnit.MILLIS)
    public CompletionStage<Long> read(@LockKey String account) {
      return CompletableFuture.completedFuture(LockContext.fencingToken());
    }

    @DistributedRateLimit(
        name = "async-rate",
        value = 1,
        window = 500,
        windowUnit = ChronoUnit.MILLIS,
        waitingTime = 2_000)
    public CompletionStage<Long> startedAt() {
      return CompletableFuture.completedFuture(System.nanoTime());
    }

    @DistributedRateLimit(
        name = "async-strict",
        value = 1,
        window = 1,
        windowUnit = ChronoUnit.HOURS)
    public CompletionStage<String> strict() {
      return CompletableFuture.completedFuture("ran");
    }

    @DistributedBulkhead(name = "async-uni", value = 1, waitingTime = 5_000)
    public Uni<String> uni(CompletableFuture<String> work) {
      uniInvocations.incrementAndGet();
      return Uni.createFrom().completionStage(work);
    }
  }

  @Test
  void aThousandCallersOfABulkheadOfFiveWaitWithoutThreadsAndStartInOrder() {
    withContainer(
        Map.of(),
        container -> {
          Gateway gateway = container.select(Gateway.class).get();
          try {
            AsyncCrowd.check(gateway::crowd, 5, 1_000, 4, Duration.ofSeconds(40));
          } catch (Exception e) {
            throw new AssertionError(e);
          }
          return null;
        },
        Gateway.class);
  }

  @Test
  void thePermitIsHeldUntilTheResultCompletesHoweverItCompletes() {
    withContainer(
        Map.of(),
        container -> {
          Gateway gateway = container.select(Gateway.class).get();
          CompletableFuture<String> failing = new CompletableFuture<>();
          CompletableFuture<String> first = gateway.single(failing);
          assertThatThrownBy(
                  () -> gateway.single(new CompletableFuture<>()).get(5, TimeUnit.SECONDS))
              .as("held while the first call's result is pending: the second times out")
              .isInstanceOf(ExecutionException.class)
              .hasCauseInstanceOf(BulkheadFullException.class);
          failing.completeExceptionally(new IllegalStateException("downstream broke"));
          assertThatThrownBy(first::join).hasRootCauseMessage("downstream broke");

          CompletableFuture<String> running = new CompletableFuture<>();
          CompletableFuture<String> cancelled = gateway.single(running);
          // started on this thread, or on the engine's when an older answer was still passed on
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
          while (gateway.singleInvocations() < 2 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
          }
          assertThat(gateway.singleInvocations()).as("the first and the third ran").isEqualTo(2);
          cancelled.cancel(false);
          assertThat(running)
              .as("cancelling the caller's stage cancels the method's")
              .isCancelled();

          assertThat(free(container, "async-single")).as("released after both").isTrue();
          return null;
        },
        Gateway.class);
  }

  @Test
  void theLockIsHeldUntilTheResultCompletesAndAWaitThatTimesOutFailsTheStage() {
    withContainer(
        Map.of(),
        container -> {
          Gateway gateway = container.select(Gateway.class).get();
          CompletableFuture<Void> done = new CompletableFuture<>();
          CompletableFuture<Long> write = gateway.write("alice", done).toCompletableFuture();
          assertThatThrownBy(() -> gateway.read("alice").toCompletableFuture().join())
              .hasCauseInstanceOf(LockTimeoutException.class);
          done.complete(null);
          long token = write.join();
          assertThat(token).isPositive();
          assertThat(gateway.read("alice").toCompletableFuture().join()).isEqualTo(token);
          return null;
        },
        Gateway.class);
  }

  @Test
  void aRateLimitedMethodIsInvokedOnlyOnceItsSlotStarts() {
    withContainer(
        Map.of(),
        container -> {
          Gateway gateway = container.select(Gateway.class).get();
          long before = System.nanoTime();
          gateway.startedAt().toCompletableFuture().join();
          CompletableFuture<Long> second = gateway.startedAt().toCompletableFuture();
          assertThat(second).as("returned before its slot").isNotDone();
          assertThat(second.join() - before)
              .as("invoked a window after the first")
              .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(500));

          gateway.strict().toCompletableFuture().join();
          assertThatThrownBy(() -> gateway.strict().toCompletableFuture().join())
              .hasCauseInstanceOf(RateLimitExceededException.class);
          return null;
        },
        Gateway.class);
  }

  @Test
  void aUniIsAdmittedWhenSubscribedAndHoldsItsPermitUntilItCompletes() {
    withContainer(
        Map.of(),
        container -> {
          Gateway gateway = container.select(Gateway.class).get();
          CompletableFuture<String> firstWork = new CompletableFuture<>();
          Uni<String> first = gateway.uni(firstWork);
          assertThat(gateway.uniInvocations()).as("nothing runs before a subscription").isZero();

          CompletableFuture<String> firstResult = first.subscribeAsCompletionStage();
          assertThat(gateway.uniInvocations()).isEqualTo(1);
          CompletableFuture<String> secondResult =
              gateway.uni(CompletableFuture.completedFuture("second")).subscribeAsCompletionStage();
          assertThat(gateway.uniInvocations()).as("the second waits for the permit").isEqualTo(1);

          firstWork.complete("first");
          assertThat(firstResult.join()).isEqualTo("first");
          assertThat(secondResult.join()).isEqualTo("second");
          assertThat(gateway.uniInvocations()).isEqualTo(2);

          CompletableFuture<String> pending = new CompletableFuture<>();
          Cancellable subscription = gateway.uni(pending).subscribe().with(item -> {});
          assertThat(free(container, "async-uni")).isFalse();
          subscription.cancel();
          // the permit is taken at once, but the method is started on the engine's asynchronous
          // thread, which may still be starting it when the cancellation comes; it releases the
          // permit as soon as it sees the cancellation
          await("released on cancellation")
              .atMost(Duration.ofSeconds(10))
              .until(() -> free(container, "async-uni"));
          return null;
        },
        Gateway.class);
  }

  /** Whether the bulkhead has a free permit now (taken and given back at once). */
  private static boolean free(WeldContainer container, String name) {
    return container
        .select(Bulwark.class)
        .get()
        .bulkhead(name)
        .tryAcquire()
        .map(
            permit -> {
              permit.close();
              return true;
            })
        .orElse(false);
  }
}
