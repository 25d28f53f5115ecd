package dev.bulwark.faulttolerance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.RateLimitDefinition;
import io.smallrye.faulttolerance.api.RateLimit;
import io.smallrye.faulttolerance.api.RateLimitType;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * SmallRye FT's {@code @RateLimit} mapped onto a Bulwark rate limit, and what cannot be mapped
 * failing the deployment with the method and the key named.
 */
class RateLimitMappingTest {

  @ApplicationScoped
  public static class Quotes {
    @RateLimit(value = 5, window = 10, windowUnit = ChronoUnit.SECONDS, type = RateLimitType.SMOOTH)
    public String smooth() {
      return "quoted";
    }

    @RateLimit(value = 5, window = 1, windowUnit = ChronoUnit.MINUTES)
    public String fixed() {
      return "quoted";
    }
  }

  @ApplicationScoped
  public static class Spaced {
    @RateLimit(value = 5, minSpacing = 100, minSpacingUnit = ChronoUnit.MILLIS)
    public String spaced() {
      return "quoted";
    }
  }

  @ApplicationScoped
  public static class Reports {
    @Bulkhead(3)
    public String run() {
      return "ran";
    }
  }

  @Test
  void valueWindowAndTypeAreMappedAfterMicroProfileConfig() {
    try (Containers.Config config =
            Containers.config()
                .set("bulwark.fault-tolerance.rate-limit.distributed", "true")
                .set(Quotes.class.getName() + "/smooth/RateLimit/value", "4")
                .set(Quotes.class.getName() + "/fixed/RateLimit/type", "rolling");
        WeldContainer container = Containers.boot(Quotes.class)) {
      Map<String, LimitDefinition> limits = MappedDefinitions.of(container);

      RateLimitDefinition smooth =
          (RateLimitDefinition) limits.get(Quotes.class.getName() + "#smooth()");
      assertThat(smooth.value()).isEqualTo(4);
      assertThat(smooth.window()).isEqualTo(Duration.ofSeconds(10));
      assertThat(smooth.type()).isEqualTo(dev.bulwark.RateLimitType.SMOOTH);
      assertThat(smooth.waitingTime()).isZero();
      RateLimitDefinition fixed =
          (RateLimitDefinition) limits.get(Quotes.class.getName() + "#fixed()");
      assertThat(fixed.value()).isEqualTo(5);
      assertThat(fixed.window()).isEqualTo(Duration.ofMinutes(1));
      assertThat(fixed.type()).isEqualTo(dev.bulwark.RateLimitType.ROLLING);
    }
  }

  @Test
  void withoutADistributedKeyNothingIsMapped() {
    try (WeldContainer container = Containers.boot(Quotes.class, Reports.class)) {
      assertThat(MappedDefinitions.of(container)).isEmpty();
    }
  }

  @Test
  void aMinimumSpacingFailsTheDeploymentNamingTheMethod() {
    try (Containers.Config config =
        Containers.config().set("bulwark.fault-tolerance.rate-limit.distributed", "true")) {
      assertThatThrownBy(() -> Containers.boot(Spaced.class).close())
          .hasStackTraceContaining(
              "Cannot make @RateLimit on " + Spaced.class.getName() + "#spaced cluster-wide")
          .hasStackTraceContaining("minSpacing = 100")
          .hasStackTraceContaining(Spaced.class.getName() + "/spaced/RateLimit/distributed=false");
    }
  }

  @Test
  void aMinimumSpacingSetToZeroByConfigIsMapped() {
    try (Containers.Config config =
            Containers.config()
                .set("bulwark.fault-tolerance.rate-limit.distributed", "true")
                .set(Spaced.class.getName() + "/spaced/RateLimit/minSpacing", "0");
        WeldContainer container = Containers.boot(Spaced.class)) {
      assertThat(MappedDefinitions.of(container)).containsKey(Spaced.class.getName() + "#spaced()");
    }
  }
}
