package dev.bulwark.quarkus.deployment.devui;

/**
 * One binding the build found, for the Dev UI card before the application answers.
 *
 * @param kind {@code bulkhead}, {@code rate-limit} or {@code lock}
 * @param name the declared name; empty for the default ({@code <class>#<method>})
 * @param on {@code class#method}, or the class for a binding on the class
 */
public record GuardedMethod(String kind, String name, String on) {}
