/**
 * What happens at Bulwark's limits, as events: a {@link dev.bulwark.event.BulwarkListener} found
 * through {@link java.util.ServiceLoader} receives every one, and the CDI extension fires each as a
 * CDI event that an application observes with {@code @Observes} or {@code @ObservesAsync}.
 */
package dev.bulwark.event;
