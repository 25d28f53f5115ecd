package dev.bulwark.it.cluster.harness;

import java.util.Map;

/**
 * One run's space in a {@link StoreUnderTest}: the Bulwark config that points a worker JVM at it,
 * and the clean-up once the run is over.
 */
public interface StoreSpace extends AutoCloseable {

  /** {@code bulwark.store} and the store's own keys, as every worker JVM of the run gets them. */
  public Map<String, String> config();

  /** Deletes what the run left in the store. */
  @Override
  public void close();
}
