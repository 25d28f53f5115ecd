package dev.bulwark.sample;

import dev.bulwark.DistributedBulkhead;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Renders account statements with a renderer that copes with two at once. The method returns a
 * {@code Uni}: each subscription waits for a permit without a thread, and holds it until the
 * statement is rendered.
 */
@ApplicationScoped
public class StatementService {

  /** The key under which tests can hold renderings open. */
  public static final String RENDERER = "statement-renderer";

  private static final Duration RENDERING = Duration.ofMillis(50);

  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger maxRunning = new AtomicInteger();

  @Inject AsyncDownstream downstream;

  @DistributedBulkhead(name = "statement-renderer", value = 2, waitingTime = 5_000)
  public Uni<Statement> render(String account) {
    int now = running.incrementAndGet();
    maxRunning.accumulateAndGet(now, Math::max);
    return Uni.createFrom()
        .completionStage(
            downstream
                .call(RENDERER, RENDERING)
                .whenComplete((done, failure) -> running.decrementAndGet())
                .thenApply(done -> new Statement(account, "statement of " + account)));
  }

  /** The most renderings that ever ran at once. */
  public int maxRunning() {
    return maxRunning.get();
  }

  public record Statement(String account, String text) {}
}
