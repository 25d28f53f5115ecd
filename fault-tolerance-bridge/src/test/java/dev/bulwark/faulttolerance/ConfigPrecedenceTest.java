package dev.bulwark.faulttolerance;

import static dev.bulwark.faulttolerance.FaultToleranceOracle.method;
import static dev.bulwark.faulttolerance.FaultToleranceOracle.name;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.LimitDefinition;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which {@code @Bulkhead} methods become cluster-wide, and with which value: exactly those
 * MicroProfile FT guards, with the value FT enforces in each JVM, whatever config sets it (each
 * case is checked against the container's own SmallRye FT); one limit per bean class and method.
 */
class ConfigPrecedenceTest {

  /** The class key keeps both per JVM; the method key makes {@code b} cluster-wide again. */
  @ApplicationScoped
  public static class Chosen {
    @Bulkhead(4)
    public String a() {
      return "a";
    }

    @Bulkhead(4)
    public String b() {
      return "b";
    }
  }

  /** A method-level annotation: FT reads no class key for it. */
  @ApplicationScoped
  public static class MethodLevel {
    @Bulkhead(4)
    public String a() {
      return "a";
    }
  }

  /** A class-level annotation: FT reads no method key for it. */
  @ApplicationScoped
  @Bulkhead(4)
  public static class ClassLevel {
    public String a() {
      return "a";
    }

    public String b() {
      return "b";
    }
  }

  /** The global key sets it; Bulwark's own keys for its limit must not. */
  @ApplicationScoped
  public static class Plain {
    @Bulkhead(4)
    public String a() {
      return "a";
    }
  }

  /** SmallRye's own spelling of the method key. */
  @ApplicationScoped
  public static class SmallRyeKeyed {
    @Bulkhead(4)
    public String a() {
      return "a";
    }
  }

  /** Bulwark's own binding on the method wins: nothing is mapped. */
  @ApplicationScoped
  public static class Both {
    @Bulkhead(4)
    @DistributedBulkhead(1)
    public String a() {
      return "a";
    }
  }

  /** Disabled for MicroProfile FT: not mapped either. */
  @ApplicationScoped
  public static class Disabled {
    @Bulkhead(4)
    public String a() {
      return "a";
    }
  }

  /** Not a bean: its method is inherited by two. */
  public static class Base {
    @Bulkhead(3)
    public String inherited() {
      return "inherited";
    }
  }

  @ApplicationScoped
  public static class DerivedOne extends Base {}

  @ApplicationScoped
  public static class DerivedTwo extends Base {}

  /** Two overloads: two bulkheads for FT, two limits. */
  @ApplicationScoped
  public static class Overloaded {
    @Bulkhead(2)
    public String run(Gate gate) {
      return "one";
    }

    @Bulkhead(5)
    public String run(Gate gate, String label) {
      return label;
    }
  }

  private static final List<Class<?>> BEANS =
      List.of(
          Chosen.class,
          MethodLevel.class,
          ClassLevel.class,
          Plain.class,
          SmallRyeKeyed.class,
          Both.class,
          Disabled.class,
          DerivedOne.class,
          DerivedTwo.class,
          Overloaded.class);

  private static Containers.Config config;
  private static WeldContainer container;
  private static FaultToleranceOracle ft;

  @BeforeAll
  static void boot() {
    config =
        Containers.config()
            .set("bulwark.fault-tolerance.bulkhead.distributed", "true")
            .set(Chosen.class.getName() + "/Bulkhead/distributed", "false")
            .set(Chosen.class.getName() + "/b/Bulkhead/distributed", "true")
            .set("Bulkhead/value", "7")
            .set(MethodLevel.class.getName() + "/Bulkhead/value", "1")
            .set(ClassLevel.class.getName() + "/Bulkhead/value", "6")
            .set(ClassLevel.class.getName() + "/b/Bulkhead/value", "5")
            .set(
                "smallrye.faulttolerance.\""
                    + SmallRyeKeyed.class.getName()
                    + "/a\".bulkhead.value",
                "3")
            .set("DistributedBulkhead/value", "9")
            .set("DistributedBulkhead/waitingTime", "2000")
            .set(Plain.class.getName() + "/a/DistributedBulkhead/value", "8")
            .set("bulwark.bulkhead." + name(Plain.class, method(Plain.class, "a")) + ".value", "2")
            .set(Disabled.class.getName() + "/a/Bulkhead/enabled", "false");
    container = Containers.boot(BEANS.toArray(Class<?>[]::new));
    ft = new FaultToleranceOracle(container);
  }

  @AfterAll
  static void shutDown() {
    container.close();
    config.close();
  }

  @Test
  void methodKeyOverClassKeyOverGlobalKeyChoosesTheMethods() {
    assertThat(mapped(Chosen.class, "a")).isNull();
    assertThat(mapped(Chosen.class, "b")).isNotNull();
    assertThat(mapped(Plain.class, "a")).isNotNull();
  }

  /** Every method FT guards, under every key above: mapped with FT's value, or FT guards none. */
  @Test
  void theClusterCapIsTheValueFaultToleranceEnforcesInEachJvm() {
    int compared = 0;
    for (Class<?> bean : BEANS) {
      for (Method method : bean.getMethods()) {
        if (method.getDeclaringClass() == Object.class) {
          continue;
        }
        OptionalInt perJvm = ft.bulkhead(bean, method);
        LimitDefinition mapped = ft.mapped(bean, method);
        if (bean == Chosen.class && method.getName().equals("a") || bean == Both.class) {
          assertThat(mapped).as("%s#%s is chosen per JVM", bean, method).isNull();
          continue;
        }
        if (perJvm.isEmpty()) {
          assertThat(mapped).as("FT guards no %s", method).isNull();
          continue;
        }
        assertThat(mapped).as("%s#%s", bean.getSimpleName(), method).isNotNull();
        assertThat(((BulkheadDefinition) mapped).value())
            .as("%s#%s", bean.getSimpleName(), method)
            .isEqualTo(perJvm.getAsInt());
        compared++;
      }
    }
    assertThat(compared).isEqualTo(10);
  }

  @Test
  void keysAreReadAtTheAnnotationsLevelOnly() {
    assertThat(value(MethodLevel.class, "a")).isEqualTo(7); // its class key (1) is not FT's
    assertThat(value(ClassLevel.class, "a")).isEqualTo(6);
    assertThat(value(ClassLevel.class, "b")).isEqualTo(6);
    assertThat(value(SmallRyeKeyed.class, "a")).isEqualTo(3);
  }

  @Test
  void bulwarksOwnKeysDoNotReachAMappedBulkhead() {
    BulkheadDefinition plain = (BulkheadDefinition) mapped(Plain.class, "a");
    assertThat(plain.value()).isEqualTo(7);
    assertThat(plain.waitingTime()).isEqualTo(Duration.ZERO);
    // the startup table names the FT key that set the value, not the annotation
    assertThat(plain.sources())
        .containsEntry("value", "Bulkhead/value")
        .containsEntry("waitingTime", "@Bulkhead");
  }

  @Test
  void bulwarksOwnBindingWinsAndADisabledBulkheadIsNotMapped() {
    // Bulwark's own binding, under Bulwark's own keys
    assertThat(((BulkheadDefinition) ft.all().get(Both.class.getName() + "#a")).value())
        .isEqualTo(9);
    assertThat(mapped(Disabled.class, "a")).isNull();
  }

  /** FT keeps a bulkhead per bean class and method: so does the cluster. */
  @Test
  void twoBeansInheritingOneMethodGetOneLimitEach() {
    assertThat(mapped(DerivedOne.class, "inherited")).isNotNull();
    assertThat(mapped(DerivedTwo.class, "inherited")).isNotNull();
    assertThat(mapped(DerivedOne.class, "inherited").name())
        .isNotEqualTo(mapped(DerivedTwo.class, "inherited").name());
    assertThat(ft.all().keySet()).noneMatch(limit -> limit.startsWith(Base.class.getName() + "#"));
  }

  @Test
  void overloadsAreToldApartByTheirParameterTypes() {
    Method one = method(Overloaded.class, "run", Gate.class);
    Method two = method(Overloaded.class, "run", Gate.class, String.class);
    assertThat(ft.mapped(Overloaded.class, one).name())
        .isEqualTo(Overloaded.class.getName() + "#run(" + Gate.class.getName() + ")");
    assertThat(ft.mapped(Overloaded.class, two).name())
        .isEqualTo(
            Overloaded.class.getName() + "#run(" + Gate.class.getName() + ",java.lang.String)");
  }

  private static LimitDefinition mapped(Class<?> bean, String method) {
    return ft.mapped(bean, method(bean, method));
  }

  private static int value(Class<?> bean, String method) {
    LimitDefinition mapped = mapped(bean, method);
    assertThat(mapped).as("%s#%s", bean.getSimpleName(), method).isNotNull();
    return ((BulkheadDefinition) mapped).value();
  }
}
