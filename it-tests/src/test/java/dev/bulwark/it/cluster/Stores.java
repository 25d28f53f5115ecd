package dev.bulwark.it.cluster;

import java.util.stream.Stream;

/**
 * The stores every multi-JVM scenario runs on, one test invocation each ({@code @MethodSource}). A
 * store whose server {@link dev.bulwark.tck.TestServices} cannot find skips its invocation only.
 */
final class Stores {

  private Stores() {}

  /** The shared servers: Redis. */
  static Stream<StoreUnderTest> shared() {
    return Stream.of(RedisUnderTest.shared());
  }
}
