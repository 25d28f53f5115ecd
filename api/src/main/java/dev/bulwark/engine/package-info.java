/**
 * What the API's own classes ask of the engine that implements them ({@code bulwark-core}), found
 * through {@link java.util.ServiceLoader}: neither applications nor stores use it.
 */
package dev.bulwark.engine;
