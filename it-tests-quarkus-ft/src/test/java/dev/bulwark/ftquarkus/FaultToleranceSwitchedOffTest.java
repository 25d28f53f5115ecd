package dev.bulwark.ftquarkus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.cdi.BulwarkRuntime;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With MicroProfile FT's switch {@code MP_Fault_Tolerance_NonFallback_Enabled=false} no bulkhead is
 * made cluster-wide, though config chooses it: the method passes Bulwark untouched.
 */
@QuarkusTest
@TestProfile(FaultToleranceSwitchedOffTest.SwitchedOff.class)
class FaultToleranceSwitchedOffTest {

  public static class SwitchedOff implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "false");
    }
  }

  @Inject Reports reports;
  @Inject BulwarkRuntime runtime;

  @Test
  void aChosenBulkheadStaysUnmappedAndItsCallsPassBulwark() throws Exception {
    assertThat(runtime.engine().registry().catalog().definitions()).isEmpty();
    // above Bulwark's configured cap of 2, below FT's own 5
    try (Callers held = Callers.holding(4, reports::capped)) {
      assertThat(held.release()).containsOnly("capped");
    }
    assertThat(runtime.engine().registry().catalog().definitions()).isEmpty();
  }
}
