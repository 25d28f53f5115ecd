package dev.bulwark.it.config;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.it.support.Room;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Named key and FT-style keys at once: the method key beats the class key, which beats the named
 * key.
 */
@ApplicationScoped
public class BothKeyed {

  /** Named key 3, method key 1. */
  @DistributedBulkhead(name = "it-both", value = 5)
  public void methodWins(Room room, int id) {
    room.occupy(id);
  }

  /** Named key 3, class key 4 (no method key for this method). */
  @DistributedBulkhead(name = "it-class", value = 5)
  public void classWins(Room room, int id) {
    room.occupy(id);
  }
}
