package dev.bulwark.redis;

import dev.bulwark.spi.Grant;
import dev.bulwark.spi.StoreException;
import java.util.List;

/** Reads the scripts' replies: {@code {status, value}} pairs of integers. */
final class Replies {

  private Replies() {}

  /** {@code {1, token}} granted, {@code {0, _}} queued, {@code {-1, _}} rejected. */
  static Grant grant(Object reply) {
    List<?> pair = pair(reply);
    long status = (Long) pair.get(0);
    if (status > 0) {
      return Grant.granted((Long) pair.get(1));
    }
    return status == 0 ? Grant.QUEUED : Grant.REJECTED;
  }

  private static List<?> pair(Object reply) {
    if (reply instanceof List<?> list && list.size() == 2) {
      return list;
    }
    throw new StoreException("Unexpected reply from a Bulwark script: " + reply);
  }
}
