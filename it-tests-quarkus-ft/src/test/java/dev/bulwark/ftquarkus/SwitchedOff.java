package dev.bulwark.ftquarkus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.cdi.BulwarkRuntime;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * With a switch that turns MicroProfile FT's bulkheads off no bulkhead is made cluster-wide, though
 * config chooses some: FT caps nothing, and neither does the cluster. Each subclass runs the
 * application with one switch.
 */
abstract class SwitchedOff {

  @Inject Reports reports;
  @Inject BulwarkRuntime runtime;

  @Test
  void noClusterLimitAndMoreCallersThanFtsValuePass() throws Exception {
    assertThat(runtime.engine().registry().catalog().definitions()).isEmpty();
    // above FT's own 5 of capped, which is off as well
    try (Callers held = Callers.holding(7, reports::capped)) {
      assertThat(held.release()).hasSize(7).containsOnly("capped");
    }
    assertThat(runtime.engine().registry().catalog().definitions()).isEmpty();
  }
}
