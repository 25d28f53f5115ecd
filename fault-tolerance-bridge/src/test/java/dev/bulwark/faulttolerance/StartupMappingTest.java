package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitKind;
import io.smallrye.faulttolerance.api.RateLimit;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.junit.jupiter.api.Test;

/**
 * The bridge's decisions on Quarkus, at startup, from the classes the build bound and from config
 * (no container): which methods count as bound, which are declared, and every bad key at once.
 */
class StartupMappingTest {

  @Bulkhead(7)
  static class Reports {
    public String daily() {
      return "daily";
    }

    @Bulkhead(3)
    public String monthly() {
      return "monthly";
    }

    @DistributedBulkhead(2)
    public String own() {
      return "own";
    }

    @RateLimit(value = 5)
    public String quote() {
      return "quoted";
    }
  }

  static class Plain {
    public String run() {
      return "ran";
    }
  }

  private static final String REPORTS = Reports.class.getName();

  private final StartupMapping mapping = new StartupMapping(List.of(Reports.class, Plain.class));

  @Test
  void everyMethodWithAnFtAnnotationAndNoOwnBindingIsBoundWhateverTheConfig() throws Exception {
    assertThat(mapping.bound(Reports.class, method(Reports.class, "daily"), LimitKind.BULKHEAD))
        .isTrue();
    assertThat(mapping.bound(Reports.class, method(Reports.class, "monthly"), LimitKind.BULKHEAD))
        .isTrue();
    assertThat(mapping.bound(Reports.class, method(Reports.class, "quote"), LimitKind.RATE_LIMIT))
        .isTrue();
    // Bulwark's own binding is declared by Bulwark, and guards the method whatever the bridge says
    assertThat(mapping.bound(Reports.class, method(Reports.class, "own"), LimitKind.BULKHEAD))
        .isFalse();
    assertThat(mapping.bound(Plain.class, method(Plain.class, "run"), LimitKind.BULKHEAD))
        .isFalse();
    assertThat(mapping.bound(Reports.class, method(Reports.class, "monthly"), LimitKind.LOCK))
        .isFalse();
  }

  @Test
  void onlyTheMethodsConfigChoosesAreDeclaredWithTheirEffectiveValue() {
    List<LimitDeclaration> declared =
        List.copyOf(
            mapping.declarations(
                ConfigLookup.of(
                    Map.of(
                        REPORTS + "/Bulkhead/distributed", "true",
                        REPORTS + "/daily/Bulkhead/distributed", "false",
                        REPORTS + "/monthly/Bulkhead/value", "4"))));

    // the class-level @Bulkhead(7) covers quote too; daily is kept per JVM by its method key
    assertThat(declared)
        .extracting(d -> d.members().get("name"), d -> d.members().get("value"))
        .containsExactlyInAnyOrder(
            tuple(REPORTS + "#monthly()", 4), tuple(REPORTS + "#quote()", 7));
    assertThat(mapping.declarations(ConfigLookup.of(Map.of()))).isEmpty();
  }

  @Test
  void everyInvalidKeyIsNamedInOneError() {
    assertThatThrownBy(
            () ->
                mapping.declarations(
                    ConfigLookup.of(
                        Map.of(
                            REPORTS + "/daily/Bulkhead/distributed", "maybe",
                            REPORTS + "/quote/RateLimit/distributed", "true",
                            REPORTS + "/quote/RateLimit/value", "0"))))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessageContaining("'" + REPORTS + "/daily/Bulkhead/distributed' = 'maybe'")
        .hasMessageContaining("'" + REPORTS + "/quote/RateLimit/value' = '0'");
  }

  private static Method method(Class<?> type, String name) throws NoSuchMethodException {
    return type.getMethod(name);
  }
}
