package dev.bulwark.faulttolerance;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.RateLimitType;
import jakarta.enterprise.util.AnnotationLiteral;
import java.time.temporal.ChronoUnit;

/**
 * The Bulwark bindings the bridge adds to a mapped method. Every member is non-binding, so they
 * only select the interceptor; the limit itself comes from the declaration the bridge made for the
 * method, which the interceptor finds by bean class and method.
 */
final class BindingLiterals {

  static final DistributedBulkhead BULKHEAD = new Bulkhead();
  static final DistributedRateLimit RATE_LIMIT = new RateLimit();

  private BindingLiterals() {}

  private static final class Bulkhead extends AnnotationLiteral<DistributedBulkhead>
      implements DistributedBulkhead {
    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
      return "";
    }

    @Override
    public int value() {
      return 10;
    }

    @Override
    public long waitingTime() {
      return 0;
    }

    @Override
    public ChronoUnit waitingTimeUnit() {
      return ChronoUnit.MILLIS;
    }

    @Override
    public long lease() {
      return 30;
    }

    @Override
    public ChronoUnit leaseUnit() {
      return ChronoUnit.SECONDS;
    }
  }

  private static final class RateLimit extends AnnotationLiteral<DistributedRateLimit>
      implements DistributedRateLimit {
    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
      return "";
    }

    @Override
    public int value() {
      return 100;
    }

    @Override
    public long window() {
      return 1;
    }

    @Override
    public ChronoUnit windowUnit() {
      return ChronoUnit.SECONDS;
    }

    @Override
    public RateLimitType type() {
      return RateLimitType.SMOOTH;
    }

    @Override
    public long waitingTime() {
      return 0;
    }

    @Override
    public ChronoUnit waitingTimeUnit() {
      return ChronoUnit.MILLIS;
    }
  }
}
