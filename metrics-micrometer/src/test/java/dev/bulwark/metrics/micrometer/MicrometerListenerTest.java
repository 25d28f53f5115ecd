package dev.bulwark.metrics.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.cdi.BulkheadInterceptor;
import dev.bulwark.cdi.BulwarkExtension;
import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.cdi.StartupCheck;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.util.List;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The module's CDI bean in Weld: it records a guarded call, unless FT's metrics are off. */
class MicrometerListenerTest {

  private static final String SWITCH = "MP_Fault_Tolerance_Metrics_Enabled";

  @ApplicationScoped
  public static class Guarded {
    @DistributedBulkhead(name = "cdi-metered", value = 2)
    public void call() {}
  }

  @ApplicationScoped
  public static class Registry {
    private final MeterRegistry registry = new SimpleMeterRegistry();

    @Produces
    MeterRegistry registry() {
      return registry;
    }
  }

  @AfterEach
  void clearSwitch() {
    System.clearProperty(SWITCH);
  }

  @Test
  void recordsTheCallsAndTheStoreOnceTheApplicationStarted() {
    List<String> names = metersAfterOneCall();

    assertThat(names).contains("bulwark.calls", "bulwark.wait.time", "bulwark.store.available");
  }

  @Test
  void faultTolerancesMetricsSwitchTurnsBulwarksMetersOff() {
    System.setProperty(SWITCH, "false");

    assertThat(metersAfterOneCall()).isEmpty();
  }

  @Test
  void theSwitchTakesWhatMicroProfileConfigTakesForABoolean() {
    System.setProperty(SWITCH, "off");

    assertThat(metersAfterOneCall()).isEmpty();
  }

  /** The names of Bulwark's meters after one guarded call, in a fresh container. */
  private static List<String> metersAfterOneCall() {
    try (WeldContainer container =
        new Weld()
            .disableDiscovery()
            .addExtension(new BulwarkExtension())
            .addBeanClasses(
                BulwarkRuntime.class,
                StartupCheck.class,
                BulkheadInterceptor.class,
                MicrometerListener.class,
                Registry.class,
                Guarded.class)
            .initialize()) {
      container.select(Guarded.class).get().call();
      return container.select(MeterRegistry.class).get().getMeters().stream()
          .map(Meter::getId)
          .map(Meter.Id::getName)
          .filter(name -> name.startsWith("bulwark."))
          .distinct()
          .toList();
    }
  }
}
