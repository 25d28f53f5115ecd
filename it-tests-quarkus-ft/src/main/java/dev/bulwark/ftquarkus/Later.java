package dev.bulwark.ftquarkus;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/** Mapped bulkheads of methods whose work completes after they return. */
@ApplicationScoped
public class Later {

  @Asynchronous
  @Bulkhead(value = 5, waitingTaskQueue = 5)
  public CompletionStage<String> stage(AsyncGate gate) {
    return gate.enter();
  }

  /** Each subscription is one call, holding its cluster permit until the Uni completes. */
  @Bulkhead(5)
  public Uni<String> uni(AsyncGate gate) {
    return Uni.createFrom().completionStage(gate::enter);
  }
}
