package dev.bulwark.core.outage;

import java.time.Instant;

/**
 * The store stopped answering calls: since when (wall clock, for operators) and what the first
 * failed call reported. Ends when the store answers again: a call, or the engine's probe of the
 * store once per reconnect interval.
 *
 * @param store the store's id ({@code bulwark.store})
 */
public record StoreOutage(String store, Instant since, String cause) {}
