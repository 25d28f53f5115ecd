/**
 * The engine of one application and its limits: {@code BulwarkEngine} opens the store and builds
 * each limit once through {@code LimitFactory}; {@code BulkheadLimiter}, {@code RateLimiter} and
 * {@code KeyedLock} (the kinds of {@code Limit}) are what interceptors and the programmatic API
 * call.
 */
package dev.bulwark.core.engine;
