package dev.bulwark.event;

/**
 * The store no longer knew a grant whose call is still running when the lease renewer came to renew
 * it (its lease ran out, e.g. after a long pause): the call goes on unguarded.
 */
public record LeaseLost(LimitType type, String name, String key) implements LimitEvent {}
