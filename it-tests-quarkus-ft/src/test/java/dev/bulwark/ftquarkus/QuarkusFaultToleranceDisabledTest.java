package dev.bulwark.ftquarkus;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;

/** Quarkus' switch for SmallRye FT: {@code quarkus.fault-tolerance.enabled=false}. */
@QuarkusTest
@TestProfile(QuarkusFaultToleranceDisabledTest.QuarkusSwitchOff.class)
class QuarkusFaultToleranceDisabledTest extends SwitchedOff {

  public static class QuarkusSwitchOff implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("quarkus.fault-tolerance.enabled", "false");
    }
  }
}
