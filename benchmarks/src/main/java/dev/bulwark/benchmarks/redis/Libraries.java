package dev.bulwark.benchmarks.redis;

/**
 * The clients of the load runners, each opened on first use and closed together. A library that
 * cannot start (Bulwark before its Redis store is on the classpath) fails only its own operations.
 * Not thread-safe: open a library on one thread before several use it.
 */
final class Libraries implements AutoCloseable {

  private final int permits;
  private JedisFloor floor;
  private BulwarkOnRedis bulwark;
  private RedissonPeer redisson;
  private Bucket4jPeer bucket4j;

  /** {@code permits}: the size of Redisson's semaphores. */
  Libraries(int permits) {
    this.permits = permits;
  }

  JedisFloor floor() {
    return floor != null ? floor : (floor = new JedisFloor());
  }

  BulwarkOnRedis bulwark() {
    return bulwark != null ? bulwark : (bulwark = new BulwarkOnRedis());
  }

  RedissonPeer redisson() {
    return redisson != null ? redisson : (redisson = new RedissonPeer(permits));
  }

  Bucket4jPeer bucket4j() {
    return bucket4j != null ? bucket4j : (bucket4j = new Bucket4jPeer());
  }

  @Override
  public void close() {
    if (floor != null) {
      floor.close();
    }
    if (bulwark != null) {
      bulwark.close();
    }
    if (redisson != null) {
      redisson.close();
    }
    if (bucket4j != null) {
      bucket4j.close();
    }
  }
}
