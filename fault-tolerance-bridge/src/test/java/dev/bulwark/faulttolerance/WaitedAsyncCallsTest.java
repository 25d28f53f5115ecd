package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.cdi.BulwarkRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code @Asynchronous} methods under cluster bulkheads on Redis that had to wait for their permit:
 * once admitted they run where MicroProfile Fault Tolerance runs asynchronous methods (SmallRye's
 * pool, not a Bulwark thread), the waited calls of two limits side by side, and with a request
 * context active, as FT makes one active around an asynchronous invocation.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WaitedAsyncCallsTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  /** How long a waited call waits for the other one to be inside too. */
  private static final Duration TOGETHER = Duration.ofSeconds(10);

  private static final AtomicLong VISITS = new AtomicLong();

  @RequestScoped
  public static class Visit {
    private final long id = VISITS.incrementAndGet();

    public long id() {
      return id;
    }
  }

  /** What a call's body is given and does. */
  @FunctionalInterface
  interface Body {
    CompletionStage<Seen> run(Visit visit);
  }

  /** Where a waited call ran and what it saw. */
  record Seen(String thread, boolean requestContextActive, boolean besideTheOther) {}

  @ApplicationScoped
  public static class Exports {
    @Inject Visit visit;

    @Asynchronous
    @DistributedBulkhead(name = "waited-exports", value = 1, waitingTime = 30_000)
    public CompletionStage<Seen> export(Body body) {
      return body.run(visit);
    }
  }

  @ApplicationScoped
  public static class Imports {
    @Inject Visit visit;

    @Asynchronous
    @DistributedBulkhead(name = "waited-imports", value = 1, waitingTime = 30_000)
    public CompletionStage<Seen> load(Body body) {
      return body.run(visit);
    }
  }

  @Test
  void twoWaitedCallsOfTwoLimitsRunSideBySideOnFaultTolerancesPoolInARequestContext()
      throws Exception {
    try (SharedRedis redis = new SharedRedis();
        Containers.Config config = redis.configure(Containers.config());
        WeldContainer container = Containers.boot(Visit.class, Exports.class, Imports.class)) {
      Exports exports = container.select(Exports.class).get();
      Imports imports = container.select(Imports.class).get();
      BulwarkRuntime runtime = container.select(BulwarkRuntime.class).get();

      CompletableFuture<Seen> release = new CompletableFuture<>();
      CountDownLatch holdersInside = new CountDownLatch(2);
      Body hold =
          visit -> {
            holdersInside.countDown();
            return release;
          };
      CompletableFuture<Seen> exportHolder = exports.export(hold).toCompletableFuture();
      CompletableFuture<Seen> importHolder = imports.load(hold).toCompletableFuture();
      assertThat(holdersInside.await(WAIT.toMillis(), TimeUnit.MILLISECONDS))
          .as("both holders run")
          .isTrue();

      CountDownLatch waitedInside = new CountDownLatch(2);
      Body waited =
          visit -> {
            String thread = Thread.currentThread().getName();
            boolean active;
            try {
              visit.id();
              active = true;
            } catch (ContextNotActiveException e) {
              active = false;
            }
            waitedInside.countDown();
            boolean beside;
            try {
              // blocks this call's thread, as a blocking @Asynchronous body does: the other call
              // can come inside meanwhile only if it runs on a thread of its own
              beside = waitedInside.await(TOGETHER.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              beside = false;
            }
            return CompletableFuture.completedFuture(new Seen(thread, active, beside));
          };
      CompletableFuture<Seen> exportWaited = exports.export(waited).toCompletableFuture();
      CompletableFuture<Seen> importWaited = imports.load(waited).toCompletableFuture();
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (runtime.engine().waiters().size() < 2) {
        assertThat(System.nanoTime() - deadline).as("both calls queue").isNegative();
        Thread.sleep(10);
      }

      release.complete(new Seen("holder", true, true));
      exportHolder.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      importHolder.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      Seen export = exportWaited.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      Seen load = importWaited.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

      for (Seen seen : new Seen[] {export, load}) {
        assertThat(seen.thread()).as("where a waited call ran").doesNotStartWith("bulwark");
        assertThat(seen.requestContextActive())
            .as("a request context is active in a waited call (ran on %s)", seen.thread())
            .isTrue();
        assertThat(seen.besideTheOther())
            .as("the two waited calls ran side by side (one ran on %s)", seen.thread())
            .isTrue();
      }
      assertThat(export.thread()).isNotEqualTo(load.thread());
    }
  }
}
