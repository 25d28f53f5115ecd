package org.example;

import dev.bulwark.DistributedBulkhead;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class Quotes {

  @DistributedBulkhead(name = "quotes", value = 2)
  public String quote(String sku) {
    return sku + ": 42";
  }
}
