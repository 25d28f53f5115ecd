/**
 * What a call holds in the store and how it stays alive: the call's request, released exactly once,
 * and the {@code LeaseRenewer} that renews the leases of running and queued calls.
 */
package dev.bulwark.core.lease;
