package dev.bulwark.quarkus.deployment.devui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.LockKey;
import dev.bulwark.cdi.BulkheadInterceptor;
import dev.bulwark.cdi.LockInterceptor;
import dev.bulwark.cdi.RateLimitInterceptor;
import java.io.IOException;
import java.util.List;
import org.jboss.jandex.Index;
import org.junit.jupiter.api.Test;

/**
 * The card's count: limits, not bindings. Bulwark's own interceptors carry the bindings as
 * interceptor bindings and are in the application's index; they are no limit, and two methods
 * sharing a name are one.
 */
class GuardedMethodsTest {

  @Test
  void countsLimitsNotInterceptorsNorBindings() throws IOException {
    Index index =
        Index.of(
            HeldCalls.class,
            Shared.class,
            BulkheadInterceptor.class,
            RateLimitInterceptor.class,
            LockInterceptor.class);

    List<GuardedMethod> guarded = GuardedMethods.in(index);

    assertThat(guarded)
        .extracting(GuardedMethod::on)
        .noneMatch(on -> on.startsWith("dev.bulwark.cdi."))
        .hasSize(7);
    // HeldCalls: browser-bulkhead, browser-queue, browser-lock, browser-rate; Shared:
    // browser-bulkhead again,
    // and its lock without a name, which takes the class's name wherever it is declared
    assertThat(GuardedMethods.limits(guarded)).isEqualTo(5);
  }

  static class Shared {
    @DistributedBulkhead(name = "browser-bulkhead")
    public void alsoBulkhead() {}

    @DistributedLock
    public void one(@LockKey String key) {}

    @DistributedLock
    public void other(@LockKey String key) {}
  }
}
