package dev.bulwark.it.config;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.it.support.Room;
import jakarta.enterprise.context.ApplicationScoped;

/** Configured by the FT-style method key {@code <FQCN>/occupy/DistributedBulkhead/value}. */
@ApplicationScoped
public class MethodKeyed {

  @DistributedBulkhead(value = 5)
  public void occupy(Room room, int id) {
    room.occupy(id);
  }
}
