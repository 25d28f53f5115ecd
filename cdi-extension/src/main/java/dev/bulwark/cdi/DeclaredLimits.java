package dev.bulwark.cdi;

import dev.bulwark.core.registry.LimitCatalog;

/**
 * The limits the application's beans declare, each resolved once: by the portable extension while
 * Weld deploys, or (Quarkus, where the build-compatible extension runs at build time) from the
 * guarded classes recorded at build time, when the application starts. A synthetic bean, so the
 * runtime works the same on both.
 */
public final class DeclaredLimits {

  private final LimitCatalog catalog;

  public DeclaredLimits(LimitCatalog catalog) {
    this.catalog = catalog;
  }

  public LimitCatalog catalog() {
    return catalog;
  }
}
