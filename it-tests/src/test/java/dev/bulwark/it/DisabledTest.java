package dev.bulwark.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.it.support.Callers;
import dev.bulwark.it.support.Deployments;
import dev.bulwark.it.support.Room;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code bulwark.enabled=false}: every binding becomes a pass-through. */
@ExtendWith(ArquillianExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DisabledTest {

  static final Duration WAIT = Duration.ofSeconds(5);

  @ApplicationScoped
  public static class Guarded {

    @DistributedBulkhead(value = 1)
    public void bulkhead(Room room, int id) {
      room.occupy(id);
    }

    @DistributedLock
    public void lock(Room room, int id) {
      room.occupy(id);
    }

    @DistributedRateLimit(value = 1, window = 1, windowUnit = ChronoUnit.HOURS)
    public void rateLimited(Room room, int id) {
      room.pass(id);
    }
  }

  @Deployment
  static JavaArchive deployment() {
    return Deployments.withConfig(
        Deployments.bulwark("disabled", Guarded.class, Room.class),
        Deployments.config("bulwark.enabled", "false"));
  }

  @Inject Guarded guarded;

  @Test
  void aBulkheadOfOneLetsThreeIn() {
    Room room = new Room("bulkhead");
    try (Callers callers = new Callers("bulkhead")) {
      try {
        for (int id = 0; id < 3; id++) {
          int caller = id;
          callers.run(() -> guarded.bulkhead(room, caller));
        }
        room.awaitEntered(3, WAIT);
        assertThat(room.inside()).isEqualTo(3);
      } finally {
        room.releaseAll();
      }
      callers.awaitAll(WAIT);
    }
  }

  @Test
  void aWriteLockLetsTwoWritersIn() {
    Room room = new Room("lock");
    try (Callers callers = new Callers("lock")) {
      try {
        callers.run(() -> guarded.lock(room, 0));
        callers.run(() -> guarded.lock(room, 1));
        room.awaitEntered(2, WAIT);
        assertThat(room.inside()).isEqualTo(2);
      } finally {
        room.releaseAll();
      }
      callers.awaitAll(WAIT);
    }
  }

  @Test
  void aRateLimitOfOneAnHourLetsTenThrough() {
    Room room = new Room("rate");
    for (int id = 0; id < 10; id++) {
      guarded.rateLimited(room, id);
    }
    assertThat(room.entered()).isEqualTo(10);
  }
}
