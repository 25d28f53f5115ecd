package dev.bulwark.health;

import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.core.engine.FailurePolicy;
import dev.bulwark.core.outage.StoreOutage;
import dev.bulwark.spi.StoreStatus;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * Whether an application's guarded calls can run: DOWN while the store is unreachable under {@code
 * fail-closed} (every call would fail), UP otherwise &mdash; under {@code fail-open} and {@code
 * local} calls still run, so the outage shows in the details only. The store is unreachable when
 * the last call failed to reach it (the engine's outage, with its start) or when the store says so
 * itself (Redis: its wake-up subscription is down). It turns UP again when the store answers, with
 * no call needed: the engine probes an unreachable store once per reconnect interval.
 */
public final class StoreReadiness {

  /** The check's name in {@code /health/ready}. */
  public static final String NAME = "bulwark";

  private StoreReadiness() {}

  public static HealthCheckResponse check(BulwarkEngine engine) {
    Optional<StoreOutage> outage = engine.outage();
    StoreStatus status = engine.store().status();
    boolean reachable = outage.isEmpty() && status.reachable();
    FailurePolicy policy = engine.settings().failurePolicy();

    Map<String, Object> details = new LinkedHashMap<>();
    details.put("store", engine.settings().storeId());
    details.put("policy", policy.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    details.put("reachable", reachable);
    outage.ifPresent(o -> details.put("unreachable-since", o.since().toString()));
    details.putAll(status.details());
    HealthCheckResponse.Status state =
        reachable || policy != FailurePolicy.FAIL_CLOSED
            ? HealthCheckResponse.Status.UP
            : HealthCheckResponse.Status.DOWN;
    return new HealthCheckResponse(NAME, state, Optional.of(details));
  }
}
