/**
 * How a queued request waits for the store's hand-over: parked ({@code QueuedRequest}) or without a
 * thread ({@code AsyncWait}, on the engine's {@code AsyncScheduler}), with the JVM's {@code
 * Waiters} that every hand-over is reported to, and what keeps waiting off a Vert.x event loop.
 */
package dev.bulwark.core.waiting;
