package dev.bulwark.it.payara.invalid;

import dev.bulwark.DistributedBulkhead;
import jakarta.enterprise.context.ApplicationScoped;

/** Valid as annotated; the WAR's config sets {@code bulwark.bulkhead.x.value=0}. */
@ApplicationScoped
public class ZeroConfigured {

  @DistributedBulkhead(name = "x", value = 5)
  public String work() {
    return "worked";
  }
}
