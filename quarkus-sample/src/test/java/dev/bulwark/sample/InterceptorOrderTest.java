package dev.bulwark.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.Bulwark;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockContext;
import dev.bulwark.LockKey;
import dev.bulwark.Permit;
import dev.bulwark.event.Granted;
import dev.bulwark.event.LimitEvent;
import dev.bulwark.event.Rejected;
import dev.bulwark.event.Released;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On Quarkus (ArC), all three bindings on one method run rate limit, bulkhead, lock, outermost
 * first, and a rejection by an inner one gives the outer bulkhead permit back.
 */
@QuarkusTest
class InterceptorOrderTest {

  @ApplicationScoped
  public static class Ledger {
    @DistributedRateLimit(name = "ordered-rate", value = 1000)
    @DistributedBulkhead(name = "ordered-bulkhead", value = 1)
    @DistributedLock(name = "ordered-lock", waitingTime = 0)
    public long write(@LockKey String account) {
      return LockContext.fencingToken();
    }
  }

  @ApplicationScoped
  public static class Recorder {
    private final List<String> seen = new ArrayList<>();

    void on(@Observes LimitEvent event) {
      if (!event.name().startsWith("ordered-")) {
        return;
      }
      String what =
          event instanceof Granted
              ? "Granted"
              : event instanceof Rejected
                  ? "Rejected"
                  : event instanceof Released ? "Released" : "Other";
      synchronized (seen) {
        seen.add(what + " " + event.type());
      }
    }

    List<String> takeAll() {
      synchronized (seen) {
        List<String> all = List.copyOf(seen);
        seen.clear();
        return all;
      }
    }
  }

  @Inject Ledger ledger;
  @Inject Recorder recorder;
  @Inject Bulwark bulwark;

  @Test
  void rateLimitThenBulkheadThenLock() {
    recorder.takeAll();
    assertThat(ledger.write("alice")).isPositive();
    assertThat(recorder.takeAll())
        .containsExactly(
            "Granted RATE_LIMIT",
            "Granted BULKHEAD",
            "Granted LOCK",
            "Released LOCK",
            "Released BULKHEAD");
  }

  @Test
  void aFullBulkheadRejectsBeforeTheLockIsAskedForAndTheRateSlotStaysSpent() {
    try (Permit full = bulwark.bulkhead("ordered-bulkhead").acquire()) {
      recorder.takeAll();
      assertThatThrownBy(() -> ledger.write("bob")).isInstanceOf(BulkheadFullException.class);
      assertThat(recorder.takeAll()).containsExactly("Granted RATE_LIMIT", "Rejected BULKHEAD");
    }
    assertThat(bulwark.bulkhead("ordered-bulkhead").tryAcquire())
        .as("the permit came back")
        .hasValueSatisfying(Permit::close);
  }
}
