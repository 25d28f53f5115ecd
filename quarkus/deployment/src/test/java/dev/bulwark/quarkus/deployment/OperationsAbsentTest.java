package dev.bulwark.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Bulwark;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Without quarkus-smallrye-health, quarkus-micrometer and quarkus-hibernate-orm (none is on this
 * module's class path) the extension leaves Bulwark's readiness check, meters and JPA container
 * provider out of the container, and the application starts. The sample, which has all three, shows
 * them present (its HealthEndpointTest and MetricsEndpointTest).
 */
class OperationsAbsentTest {

  @RegisterExtension static final QuarkusUnitTest APP = new QuarkusUnitTest();

  @Inject Bulwark bulwark;

  @Test
  void theOptionalBeansAreLeftOut() {
    List<String> beanClasses =
        Arc.container().beanManager().getBeans(Object.class, Any.Literal.INSTANCE).stream()
            .map(Bean::getBeanClass)
            .map(Class::getName)
            .toList();
    assertThat(beanClasses)
        .contains("dev.bulwark.cdi.BulwarkRuntime")
        .noneMatch(name -> name.startsWith("dev.bulwark.health."))
        .noneMatch(name -> name.startsWith("dev.bulwark.metrics.micrometer."))
        .noneMatch(name -> name.startsWith("dev.bulwark.jpa.container."));
    assertThat(bulwark.bulkhead("absent").inspect().limit()).isPositive();
  }
}
