package dev.bulwark.event;

/**
 * A store call failed after the store had been answering: from now on calls get the failure policy,
 * until {@link StoreOutageEnded}.
 *
 * @param store the store's id ({@code bulwark.store})
 * @param cause what the failed call reported
 */
public record StoreOutageStarted(String store, String cause) implements BulwarkEvent {}
