package dev.bulwark.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.DistributedBulkhead;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Two beans that inherit one method and bind it at class level get a limit each. */
class InheritedBindingTest {

  public abstract static class Gateway {
    /** Runs {@code inside} while holding this bean's permit. */
    public int call(Runnable inside) {
      inside.run();
      return 1;
    }
  }

  @ApplicationScoped
  @DistributedBulkhead(value = 1)
  public static class SingleLane extends Gateway {}

  @ApplicationScoped
  @DistributedBulkhead(value = 2)
  public static class DoubleLane extends Gateway {}

  @Test
  void eachSubclassEnforcesItsOwnClassLevelBinding() {
    WeldContainers.withContainer(
        Map.of(),
        container -> {
          SingleLane single = container.select(SingleLane.class).get();
          DoubleLane dual = container.select(DoubleLane.class).get();
          assertThatThrownBy(() -> single.call(() -> single.call(() -> {})))
              .isInstanceOf(BulkheadFullException.class)
              .hasMessageContaining(SingleLane.class.getName() + "#call");
          // the other bean's limit is its own: two nested calls fit, a third does not
          assertThat(dual.call(() -> dual.call(() -> {}))).isEqualTo(1);
          assertThatThrownBy(() -> dual.call(() -> dual.call(() -> dual.call(() -> {}))))
              .isInstanceOf(BulkheadFullException.class)
              .hasMessageContaining(DoubleLane.class.getName() + "#call");
          // and one bean's full bulkhead does not block the other
          single.call(() -> assertThat(dual.call(() -> {})).isEqualTo(1));
          return null;
        },
        SingleLane.class,
        DoubleLane.class);
  }
}
