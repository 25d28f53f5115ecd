package dev.bulwark.it.invalid;

import dev.bulwark.DistributedRateLimit;
import jakarta.enterprise.context.ApplicationScoped;

/** An annotation member out of range: {@code value = 0}. */
@ApplicationScoped
public class BadlyAnnotated {

  @DistributedRateLimit(value = 0)
  public void work() {}
}
