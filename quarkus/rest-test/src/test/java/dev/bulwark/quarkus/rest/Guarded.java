package dev.bulwark.quarkus.rest;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockKey;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.temporal.ChronoUnit;

/** One limit of each kind, small enough that a test reaches its rejection with two calls. */
@ApplicationScoped
public class Guarded {

  @Inject Gate gate;

  @DistributedBulkhead(name = "reports", value = 1)
  public String report() {
    gate.pass();
    return "report";
  }

  @DistributedRateLimit(name = "quotes", value = 1, window = 1, windowUnit = ChronoUnit.HOURS)
  public String quote() {
    return "quote";
  }

  @DistributedLock(name = "accounts", waitingTime = 100, waitingTimeUnit = ChronoUnit.MILLIS)
  public String write(@LockKey String account) {
    gate.pass();
    return "written " + account;
  }
}
