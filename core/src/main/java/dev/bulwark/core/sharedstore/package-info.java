/**
 * What the shared stores (Redis, JPA) do alike beyond the outage gate: {@code KeyBytes}, the bytes
 * a limit's name or lock key is hashed from.
 */
package dev.bulwark.core.sharedstore;
