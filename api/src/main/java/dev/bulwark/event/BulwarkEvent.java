package dev.bulwark.event;

/**
 * Something that happened at a limit, or to the store. Events are immutable values, fired on the
 * thread of the call that caused them (the lease renewer's thread for {@link LeaseLost}).
 */
public sealed interface BulwarkEvent permits LimitEvent, StoreOutageStarted, StoreOutageEnded {}
