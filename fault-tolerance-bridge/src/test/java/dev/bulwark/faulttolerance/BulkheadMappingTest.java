package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LimitDeclaration;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.junit.jupiter.api.Test;

/** Which {@code @Bulkhead} is mapped and with what, from config alone (no container). */
class BulkheadMappingTest {

  static class Billing {
    @Bulkhead(4)
    public String charge() {
      return "charged";
    }
  }

  private static final String CLASS = Billing.class.getName();
  private static final String ON = "bulwark.fault-tolerance.bulkhead.distributed";

  private static Optional<Mapped> map(String... keysAndValues) throws Exception {
    Map<String, String> config = new HashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      config.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    Method charge = Billing.class.getMethod("charge");
    return BulkheadMapping.declaration(
        ConfigLookup.of(config), Billing.class, charge, true, charge.getAnnotation(Bulkhead.class));
  }

  @Test
  void nothingIsMappedUnlessADistributedKeySaysSo() throws Exception {
    assertThat(map()).isEmpty();
    assertThat(map(ON, "false")).isEmpty();
    assertThat(map(ON, "true")).isPresent();
  }

  @Test
  void distributedIsReadMethodKeyFirstThenClassKeyThenTheGlobalKey() throws Exception {
    assertThat(map(ON, "true", CLASS + "/Bulkhead/distributed", "false")).isEmpty();
    assertThat(
            map(
                ON,
                "false",
                CLASS + "/Bulkhead/distributed",
                "false",
                CLASS + "/charge/Bulkhead/distributed",
                "true"))
        .isPresent();
    assertThat(map(CLASS + "/Bulkhead/distributed", "true")).isPresent();
  }

  @Test
  void theDeclarationIsTheEffectiveValueFailingFastNamedAfterBeanClassAndMethod() throws Exception {
    LimitDeclaration plain = map(ON, "true").orElseThrow().declaration();
    assertThat(plain.configurable()).isFalse();
    assertThat(plain.members())
        .containsEntry("name", CLASS + "#charge()")
        .containsEntry("value", 4)
        .containsEntry("waitingTime", 0L);
    assertThat(plain.source()).isEqualTo("@Bulkhead");
    assertThat(map(ON, "true", "Bulkhead/value", "7").orElseThrow().declaration().member("value"))
        .isEqualTo(7);
    Mapped byMethodKey =
        map(
                ON,
                "true",
                "Bulkhead/value",
                "7",
                CLASS + "/Bulkhead/value",
                "6",
                CLASS + "/charge/Bulkhead/value",
                "5")
            .orElseThrow();
    assertThat(byMethodKey.declaration().member("value")).isEqualTo(5);
    assertThat(byMethodKey.keys()).containsExactly(ON, CLASS + "/charge/Bulkhead/value");
    // a method-level annotation: FT reads no class key for it
    assertThat(
            map(ON, "true", "Bulkhead/value", "7", CLASS + "/Bulkhead/value", "1")
                .orElseThrow()
                .declaration()
                .member("value"))
        .isEqualTo(7);
  }

  /** As MicroProfile FT: the annotation's enabled keys, else the NonFallback switch. */
  @Test
  void aBulkheadMicroProfileFtDoesNotApplyIsNotMapped() throws Exception {
    assertThat(map(ON, "true", "MP_Fault_Tolerance_NonFallback_Enabled", "false")).isEmpty();
    assertThat(map(ON, "true", CLASS + "/Bulkhead/enabled", "false")).isEmpty();
    assertThat(
            map(
                ON,
                "true",
                "MP_Fault_Tolerance_NonFallback_Enabled",
                "false",
                CLASS + "/charge/Bulkhead/enabled",
                "true"))
        .isPresent();
  }

  @Test
  void badValuesNameTheMethodAndTheKey() throws Exception {
    assertThatThrownBy(() -> map(ON, "true", CLASS + "/charge/Bulkhead/value", "0"))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessage(
            "Invalid @Bulkhead on "
                + CLASS
                + "#charge: config key '"
                + CLASS
                + "/charge/Bulkhead/value' = '0' must be greater than 0");
    assertThatThrownBy(() -> map(ON, "true", "Bulkhead/value", "-3"))
        .hasMessageContaining("'Bulkhead/value' = '-3' is not a whole number");
    assertThatThrownBy(() -> map(ON, "true", "Bulkhead/value", "99999999999"))
        .hasMessageContaining("is not a whole number");
    assertThatThrownBy(() -> map(ON, "maybe"))
        .hasMessageContaining("config key '" + ON + "' = 'maybe' is not true or false");
    assertThat(map(ON, "true", "MP_Fault_Tolerance_NonFallback_Enabled", "off")).isEmpty();
  }
}
