package dev.bulwark.it.support;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link LocalRedisCluster} of three masters for the tests of one class: started before the
 * first, stopped after the last. Register it as a static field with {@code @RegisterExtension}.
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback {

  private LocalRedisCluster cluster;

  @Override
  public void beforeAll(ExtensionContext context) {
    cluster = LocalRedisCluster.start(3);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }

  /** The running cluster. */
  public LocalRedisCluster cluster() {
    if (cluster == null) {
      throw new IllegalStateException("the cluster runs only while the test class runs");
    }
    return cluster;
  }
}
