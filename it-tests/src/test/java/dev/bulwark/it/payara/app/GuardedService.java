package dev.bulwark.it.payara.app;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockContext;
import dev.bulwark.LockKey;
import dev.bulwark.LockMode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/** The bean whose Bulwark bindings the Payara tests exercise through HTTP. */
@ApplicationScoped
public class GuardedService {

  /** The limit name that {@code META-INF/microprofile-config.properties} sets to 2. */
  public static final String CONFIGURED = "payara-configured";

  @Inject Gates gates;

  @DistributedBulkhead(value = 2)
  public String bulkhead(String gate, int id) {
    return gates.get(gate).pass(id);
  }

  /** Annotated with 10; the WAR's MicroProfile Config says 2. */
  @DistributedBulkhead(name = CONFIGURED, value = 10)
  public String configured(String gate, int id) {
    return gates.get(gate).pass(id);
  }

  @DistributedRateLimit(value = 3, window = 1, windowUnit = ChronoUnit.HOURS)
  public String rated(int id) {
    return "rated " + id;
  }

  @DistributedLock(name = "payara-accounts", mode = LockMode.WRITE)
  public long write(@LockKey String account) {
    return LockContext.fencingToken();
  }

  /** Payara's own FT interceptor (PLATFORM_AFTER + 15) sits outside Bulwark's (+ 100). */
  @DistributedBulkhead(value = 1)
  @Fallback(fallbackMethod = "busy", applyOn = BulkheadException.class)
  public String withFallback(String gate, int id) {
    return gates.get(gate).pass(id);
  }

  public String busy(String gate, int id) {
    return "fallback " + id;
  }
}
