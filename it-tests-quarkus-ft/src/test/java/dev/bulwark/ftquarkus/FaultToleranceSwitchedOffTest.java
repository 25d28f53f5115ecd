package dev.bulwark.ftquarkus;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;

/** MicroProfile FT's own switch: {@code MP_Fault_Tolerance_NonFallback_Enabled=false}. */
@QuarkusTest
@TestProfile(FaultToleranceSwitchedOffTest.NonFallbackOff.class)
class FaultToleranceSwitchedOffTest extends SwitchedOff {

  public static class NonFallbackOff implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("MP_Fault_Tolerance_NonFallback_Enabled", "false");
    }
  }
}
