/**
 * A store that cannot be reached: {@code OutageGate}, which every call of a shared store to its
 * server goes through, and on the engine's side {@code OutageWatch} and {@code OutageProbe}, which
 * tell when an outage starts and ends ({@code StoreOutage}).
 */
package dev.bulwark.core.outage;
