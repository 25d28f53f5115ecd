package dev.bulwark.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.event.Granted;
import dev.bulwark.event.LimitType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PerLimitTest {

  @Test
  void aLimitsRecorderIsMadeOnItsFirstEventAndKeptPerTypeAndName() {
    List<String> made = new ArrayList<>();
    PerLimit<String> perLimit =
        new PerLimit<>(
            (type, name) -> {
              made.add(type + " " + name);
              return type + ":" + name;
            });

    String first = perLimit.of(new Granted(LimitType.BULKHEAD, "orders", "", Duration.ZERO));
    String again = perLimit.of(new Granted(LimitType.BULKHEAD, "orders", "", Duration.ZERO));
    // the same name under another type is another limit
    String lock = perLimit.of(new Granted(LimitType.LOCK, "orders", "k", Duration.ZERO));

    assertThat(first).isEqualTo("BULKHEAD:orders").isSameAs(again);
    assertThat(lock).isEqualTo("LOCK:orders");
    assertThat(made).containsExactly("BULKHEAD orders", "LOCK orders");
  }

  @Test
  void builtFindsTheLimitOfThatTypeAndNameOnceTheEngineBuiltIt() {
    try (BulwarkEngine engine = BulwarkEngine.start(ConfigLookup.empty())) {
      assertThat(PerLimit.built(engine, LimitType.BULKHEAD, "reports")).isEmpty();
      engine.registry().bulkhead("reports");

      assertThat(PerLimit.built(engine, LimitType.BULKHEAD, "reports"))
          .hasValueSatisfying(l -> assertThat(l.definition().name()).isEqualTo("reports"));
      assertThat(PerLimit.built(engine, LimitType.LOCK, "reports")).isEmpty();
      assertThat(PerLimit.built(engine, LimitType.BULKHEAD, "other")).isEmpty();
    }
  }
}
