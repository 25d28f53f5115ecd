package dev.bulwark.it.cluster.harness;

/**
 * A store that a test makes unreachable mid-run and reachable again, without restarting a worker: a
 * Redis server of the test's own that it shuts down and starts again, empty ({@link RedisRestart}),
 * or a shared database behind a relay that the test cuts and restores ({@link RelayCut}).
 */
public interface StoreOutage extends AutoCloseable {

  /** The store the runs open their spaces in, reached through what {@link #cut()} breaks. */
  public StoreUnderTest store();

  /** Makes the store unreachable; returns once nothing can reach it any more. */
  public void cut();

  /** Makes the store reachable again. */
  public void restore();

  /**
   * Waits, at most until {@code deadline} ({@link System#nanoTime()}), for evidence that the
   * workers of {@code run} use the store again since {@link #restore()}; false without it.
   */
  public boolean usedAgain(ClusterRun run, long deadline);

  @Override
  public void close();
}
