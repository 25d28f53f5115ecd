package dev.bulwark.it.config;

import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockKey;
import dev.bulwark.it.support.Room;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.temporal.ChronoUnit;

/** Rate limits and a lock whose values come from config. */
@ApplicationScoped
public class RateConfigured {

  /** {@code bulwark.rate-limit.it-rate.value=2}, and enabled by name against the global off. */
  @DistributedRateLimit(name = "it-rate", value = 100, window = 1, windowUnit = ChronoUnit.MINUTES)
  public void named() {}

  /** Disabled by the FT-style global key {@code DistributedRateLimit/enabled=false}. */
  @DistributedRateLimit(value = 1, window = 1, windowUnit = ChronoUnit.MINUTES)
  public void globallyDisabled() {}

  /** {@code bulwark.lock.it-lock.waiting-time=PT0.2S} instead of the annotation's 10 s. */
  @DistributedLock(name = "it-lock")
  public void locked(@LockKey String key, Room room, int id) {
    room.occupy(id);
  }
}
