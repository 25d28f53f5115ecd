package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.DefinitionResolver;
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
  /** The startup table names the key that set each value, in the spelling that was set. */
  @Test
  void theDefinitionNamesTheKeyThatSetTheValue() throws Exception {
    assertThat(sources(map(ON, "true"))).containsEntry("value", "@Bulkhead");
    assertThat(sources(map(ON, "true", CLASS + "/charge/Bulkhead/value", "6")))
        .containsEntry("value", CLASS + "/charge/Bulkhead/value");
    String smallRye = "smallrye.faulttolerance.\"" + CLASS + "/charge\".bulkhead.value";
    assertThat(sources(map(ON, "true", smallRye, "5"))).containsEntry("value", smallRye);
    // on Quarkus, Quarkus' spelling reaches SmallRye's by relocation: both read the same value
    String quarkus = "quarkus.fault-tolerance.\"" + CLASS + "/charge\".bulkhead.value";
    assertThat(sources(map(ON, "true", smallRye, "5", quarkus, "5")))
        .containsEntry("value", quarkus);
  }

  /** A key of Bulwark's that earlier versions read for the mapped limit is named as ignored. */
  @Test
  void bulwarksOwnValueKeyForAMappedBulkheadIsReportedAsIgnored() throws Exception {
    assertThat(map(ON, "true").orElseThrow().ignored()).isEmpty();
    Mapped mapped =
        map(
                ON,
                "true",
                "bulwark.bulkhead." + CLASS + "#charge().value",
                "9",
                "bulwark.bulkhead." + CLASS + "#charge().lease",
                "1m")
            .orElseThrow();
    assertThat(mapped.declaration().member("value")).isEqualTo(4);
    assertThat(mapped.ignored())
        .containsExactly(
            "config key 'bulwark.bulkhead."
                + CLASS
                + "#charge().value' is ignored: the limit of a mapped MicroProfile FT annotation"
                + " takes its value from FT's keys only; set "
                + CLASS
                + "/charge/Bulkhead/value instead");
    assertThat(
            map(ON, "true", "bulwark.bulkhead." + CLASS + "#charge.value", "9")
                .orElseThrow()
                .ignored())
        .singleElement()
        .asString()
        .contains("'bulwark.bulkhead." + CLASS + "#charge.value' is ignored");
  }

  private static Map<String, String> sources(Optional<Mapped> mapped) {
    return new DefinitionResolver(ConfigLookup.empty())
        .resolve(mapped.orElseThrow().declaration())
        .sources();
  }

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
