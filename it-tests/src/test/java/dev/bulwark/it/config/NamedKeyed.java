package dev.bulwark.it.config;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.it.support.Room;
import jakarta.enterprise.context.ApplicationScoped;

/** Configured by the named key {@code bulwark.bulkhead.it-named.value}. */
@ApplicationScoped
public class NamedKeyed {

  @DistributedBulkhead(name = "it-named", value = 5)
  public void occupy(Room room, int id) {
    room.occupy(id);
  }

  /** Its waiting time comes from {@code bulwark.bulkhead.it-wait.waiting-time}. */
  @DistributedBulkhead(name = "it-wait", value = 1)
  public void occupyWaiting(Room room, int id) {
    room.occupy(id);
  }
}
