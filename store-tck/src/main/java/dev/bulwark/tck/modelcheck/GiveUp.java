package dev.bulwark.tck.modelcheck;

/**
 * A call a store sends after a lost reply to give the request up, held back by its {@link
 * StoreDriver} so that other steps may run before it. What it holds is the driver's.
 */
public interface GiveUp {}
