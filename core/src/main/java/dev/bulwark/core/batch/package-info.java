/**
 * Store operations sent in batches, for a store that applies them: a queue per limit (and per lock
 * key), and the engine's sending threads that take turns among them ({@code Batches}).
 */
package dev.bulwark.core.batch;
