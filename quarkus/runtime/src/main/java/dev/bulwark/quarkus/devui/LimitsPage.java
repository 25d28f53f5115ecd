package dev.bulwark.quarkus.devui;

import java.util.List;

/**
 * What the Dev UI page shows: the engine's settings and every limit.
 *
 * @param store the store's id ({@code local}, {@code redis}, {@code jpa} …)
 * @param enabled false when {@code bulwark.enabled=false} makes every binding a pass-through
 */
public record LimitsPage(
    String store, String failurePolicy, boolean enabled, List<LimitView> limits) {}
