package dev.bulwark.core.engine;

import dev.bulwark.StoreUnavailableException;
import dev.bulwark.core.event.LimitEvents;
import dev.bulwark.spi.StoreException;
import java.util.function.Supplier;

/**
 * An operator's read of a limit's state in the store. It bypasses the failure policy: a store that
 * cannot be reached has no state to show, whatever calls get meanwhile.
 */
final class OperatorRead {

  private OperatorRead() {}

  static <T> T read(LimitEvents limit, Supplier<T> read) {
    try {
      return read.get();
    } catch (StoreException e) {
      throw new StoreUnavailableException(
          limit.name(), limit + ": cannot inspect, store unavailable: " + e.getMessage(), e);
    }
  }
}
