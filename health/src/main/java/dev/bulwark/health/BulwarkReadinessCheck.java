package dev.bulwark.health;

import dev.bulwark.cdi.BulwarkRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** {@link StoreReadiness} as the application's readiness check: the module on the class path. */
@Readiness
@ApplicationScoped
public class BulwarkReadinessCheck implements HealthCheck {

  @Inject BulwarkRuntime runtime;

  @Override
  public HealthCheckResponse call() {
    return StoreReadiness.check(runtime.engine());
  }
}
