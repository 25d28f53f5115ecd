package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.core.config.BulkheadDefinition;
import dev.bulwark.core.config.LimitDefinition;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which {@code @Bulkhead} methods become cluster-wide, and with which value: the {@code
 * distributed} and {@code value} keys are read as MicroProfile FT reads its config, method key over
 * class key over global key; Bulwark's named keys then apply to the mapped limit as to its own.
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

  /** A class-level {@code @Bulkhead}: one limit per method, values by method, class, global key. */
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

  @ApplicationScoped
  public static class Plain {
    @Bulkhead(4)
    public String a() {
      return "a";
    }
  }

  /** Bulwark's named key sets the cluster cap apart from the per-JVM value. */
  @ApplicationScoped
  public static class Named {
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

  /** Not a bean: its method is inherited by {@link Derived}. */
  public static class Base {
    @Bulkhead(3)
    public String inherited() {
      return "inherited";
    }
  }

  @ApplicationScoped
  public static class Derived extends Base {}

  private static Containers.Config config;
  private static WeldContainer container;
  private static Map<String, LimitDefinition> limits;

  @BeforeAll
  static void boot() {
    config =
        Containers.config()
            .set("bulwark.fault-tolerance.bulkhead.distributed", "true")
            .set(Chosen.class.getName() + "/Bulkhead/distributed", "false")
            .set(Chosen.class.getName() + "/b/Bulkhead/distributed", "true")
            .set("Bulkhead/value", "7")
            .set(ClassLevel.class.getName() + "/Bulkhead/value", "6")
            .set(ClassLevel.class.getName() + "/b/Bulkhead/value", "5")
            .set("bulwark.bulkhead." + Named.class.getName() + "#a.value", "2")
            .set(Disabled.class.getName() + "/a/Bulkhead/enabled", "false");
    container =
        Containers.boot(
            Chosen.class,
            ClassLevel.class,
            Plain.class,
            Named.class,
            Both.class,
            Disabled.class,
            Derived.class);
    limits = MappedDefinitions.of(container);
  }

  @AfterAll
  static void shutDown() {
    container.close();
    config.close();
  }

  @Test
  void methodKeyOverClassKeyOverGlobalKeyChoosesTheMethods() {
    assertThat(limits).doesNotContainKey(Chosen.class.getName() + "#a");
    assertThat(limits).containsKey(Chosen.class.getName() + "#b");
    assertThat(limits).containsKey(Plain.class.getName() + "#a");
  }

  @Test
  void theClusterCapIsTheEffectiveValueByMethodClassAndGlobalKey() {
    assertThat(value(ClassLevel.class.getName() + "#b")).isEqualTo(5);
    assertThat(value(ClassLevel.class.getName() + "#a")).isEqualTo(6);
    assertThat(value(Plain.class.getName() + "#a")).isEqualTo(7);
    assertThat(value(Chosen.class.getName() + "#b")).isEqualTo(7);
    assertThat(limits.get(ClassLevel.class.getName() + "#b").sources())
        .containsEntry("value", "@Bulkhead")
        .containsEntry("lease", "@Bulkhead");
  }

  @Test
  void bulwarksNamedKeySetsTheClusterCap() {
    assertThat(value(Named.class.getName() + "#a")).isEqualTo(2);
    assertThat(limits.get(Named.class.getName() + "#a").sources())
        .containsEntry("value", "bulwark.bulkhead." + Named.class.getName() + "#a.value");
  }

  @Test
  void bulwarksOwnBindingWinsAndADisabledBulkheadIsNotMapped() {
    assertThat(value(Both.class.getName() + "#a")).isEqualTo(1);
    assertThat(limits.get(Both.class.getName() + "#a").sources())
        .containsEntry("value", "annotation");
    assertThat(limits).doesNotContainKey(Disabled.class.getName() + "#a");
  }

  /** As for Bulwark's own: a method-level annotation names the limit after the method's class. */
  @Test
  void anInheritedMethodIsNamedAfterTheClassThatDeclaresIt() {
    assertThat(value(Base.class.getName() + "#inherited")).isEqualTo(7);
    assertThat(container.select(Derived.class).get().inherited()).isEqualTo("inherited");
  }

  private static int value(String name) {
    assertThat(limits).containsKey(name);
    return ((BulkheadDefinition) limits.get(name)).value();
  }
}
