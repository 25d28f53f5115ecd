package dev.bulwark.it.invalid;

import dev.bulwark.DistributedBulkhead;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Valid annotation, but {@code bulwark.bulkhead.it-bad.value} in the deployment is not a number.
 */
@ApplicationScoped
public class BadlyConfigured {

  @DistributedBulkhead(name = "it-bad", value = 2)
  public void work() {}
}
