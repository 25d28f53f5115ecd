package dev.bulwark;

/**
 * A held bulkhead permit or lock. Closing it releases it; closing twice does nothing. Use it in a
 * try-with-resources block so that it is released when the work ends, however it ends.
 */
public interface Permit extends AutoCloseable {

  /** Releases the permit. */
  @Override
  void close();
}
