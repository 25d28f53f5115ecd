/**
 * Each limit's chain of links, built once by {@code LimitChains}: events, counting, the failure
 * policy, the thread's locks, and the store links ({@code PermitLink}, {@code LockLink}, {@code
 * RateLink}) that ask the store for one call.
 */
package dev.bulwark.core.chain;
