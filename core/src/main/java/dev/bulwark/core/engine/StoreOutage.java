package dev.bulwark.core.engine;

import java.time.Instant;

/**
 * The store stopped answering calls: since when (wall clock, for operators) and what the first
 * failed call reported. Ends at the next call the store answers.
 *
 * @param store the store's id ({@code bulwark.store})
 */
public record StoreOutage(String store, Instant since, String cause) {}
