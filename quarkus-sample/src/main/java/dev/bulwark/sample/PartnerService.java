package dev.bulwark.sample;

import dev.bulwark.DistributedRateLimit;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Calls a partner's API whose contract allows only so many requests per second for all our
 * instances together.
 */
@ApplicationScoped
public class PartnerService {

  private final AtomicLong calls = new AtomicLong();

  /**
   * A price quote from the partner. The annotation says 100 a minute; {@code
   * application.properties} sets 5 per second with {@code bulwark.rate-limit.partner-api.*}.
   */
  @DistributedRateLimit(
      name = "partner-api",
      value = 100,
      window = 1,
      windowUnit = ChronoUnit.MINUTES)
  public Quote quote(String sku) {
    long n = calls.incrementAndGet();
    return new Quote(sku, 1000 + Math.floorMod(sku.hashCode(), 9000), n);
  }

  /** The calls that got through to the partner so far. */
  public long calls() {
    return calls.get();
  }

  /** A price in cents, and which call to the partner produced it. */
  public record Quote(String sku, long priceCents, long partnerCall) {}
}
