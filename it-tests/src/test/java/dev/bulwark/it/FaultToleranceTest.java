package dev.bulwark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.DistributedBulkhead;
import dev.bulwark.it.support.AttemptRecorder;
import dev.bulwark.it.support.Attempted;
import dev.bulwark.it.support.Attempts;
import dev.bulwark.it.support.Callers;
import dev.bulwark.it.support.Callers.Caller;
import dev.bulwark.it.support.Deployments;
import dev.bulwark.it.support.Room;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bulwark rejections seen by SmallRye Fault Tolerance 6 on Weld: {@code @Fallback} handles them,
 * {@code @Retry} retries them, because Bulwark's interceptor runs inside FT's and its exceptions
 * extend FT's. An interceptor between the two records every attempt.
 */
@ExtendWith(ArquillianExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FaultToleranceTest {

  static final Duration WAIT = Duration.ofSeconds(5);

  @ApplicationScoped
  public static class Service {

    @DistributedBulkhead(value = 1)
    @Fallback(fallbackMethod = "busy", applyOn = BulkheadException.class)
    @Attempted
    public String withFallback(Room room, int id, Attempts attempts) {
      room.occupy(id);
      return "ran " + id;
    }

    public String busy(Room room, int id, Attempts attempts) {
      attempts.fallback();
      return "fallback " + id;
    }

    @DistributedBulkhead(value = 1)
    @Fallback(fallbackMethod = "busy", skipOn = BulkheadException.class)
    @Attempted
    public String fallbackSkipping(Room room, int id, Attempts attempts) {
      room.occupy(id);
      return "ran " + id;
    }

    @DistributedBulkhead(value = 1)
    @Retry(maxRetries = 3, delay = 0, jitter = 0, retryOn = BulkheadException.class)
    @Attempted
    public String retried(Room room, int id, Attempts attempts) {
      room.occupy(id);
      return "ran " + id;
    }

    @DistributedBulkhead(value = 1)
    @Retry(maxRetries = 2, delay = 0, jitter = 0, retryOn = BulkheadException.class)
    @Attempted
    public String retriedInVain(Room room, int id, Attempts attempts) {
      room.occupy(id);
      return "ran " + id;
    }
  }

  @Deployment
  static JavaArchive deployment() {
    return Deployments.bulwark(
        "faulttolerance",
        Service.class,
        Room.class,
        Attempts.class,
        Attempted.class,
        AttemptRecorder.class);
  }

  @Inject Service service;

  @Test
  void fallbackApplyingOnBulkheadExceptionHandlesABulwarkRejection() throws Exception {
    Room room = new Room("fallback");
    try (Callers callers = new Callers("fallback")) {
      Caller<String> holder;
      Attempts attempts = new Attempts();
      String result;
      try {
        holder = callers.start(() -> service.withFallback(room, 0, new Attempts()));
        room.awaitEntered(1, WAIT);

        result = service.withFallback(room, 1, attempts);
      } finally {
        room.releaseAll();
      }

      assertThat(result).isEqualTo("fallback 1");
      assertThat(attempts.all()).hasSize(1);
      assertThat(attempts.all().get(0).failure()).isInstanceOf(BulkheadFullException.class);
      assertThat(attempts.fallbacks()).isEqualTo(1);
      assertThat(holder.result(WAIT)).isEqualTo("ran 0");
      assertThat(room.entryOrder()).containsExactly(0);
    }
  }

  @Test
  void fallbackSkippingBulkheadExceptionLetsTheRejectionThrough() throws Exception {
    Room room = new Room("skip");
    try (Callers callers = new Callers("skip")) {
      Attempts attempts = new Attempts();
      try {
        callers.run(() -> service.fallbackSkipping(room, 0, new Attempts()));
        room.awaitEntered(1, WAIT);

        assertThatThrownBy(() -> service.fallbackSkipping(room, 1, attempts))
            .isInstanceOf(BulkheadFullException.class);
      } finally {
        room.releaseAll();
      }
      callers.awaitAll(WAIT);
      assertThat(attempts.fallbacks()).isZero();
      assertThat(attempts.all()).hasSize(1);
    }
  }

  @Test
  void retryRetriesARejectionAndSucceedsOnceThePermitIsFree() throws Exception {
    Room room = new Room("retry");
    try (Callers callers = new Callers("retry")) {
      try {
        Caller<String> holder = callers.start(() -> service.retried(room, 0, new Attempts()));
        room.awaitEntered(1, WAIT);
        // when the first attempt is rejected, free the permit before FT retries
        Attempts attempts =
            new Attempts()
                .onFirstFailure(
                    failure -> {
                      room.release(0);
                      holder.result(WAIT);
                    });
        room.release(1);

        String result = service.retried(room, 1, attempts);

        assertThat(result).isEqualTo("ran 1");
        assertThat(attempts.all()).hasSize(2);
        assertThat(attempts.all().get(0).failure()).isInstanceOf(BulkheadFullException.class);
        assertThat(attempts.all().get(1).succeeded()).isTrue();
        assertThat(room.entryOrder()).containsExactly(0, 1);
        assertThat(room.maxInside()).isEqualTo(1);
      } finally {
        room.releaseAll();
      }
    }
  }

  @Test
  void retryGivesUpAfterMaxRetriesWithTheBulwarkException() throws Exception {
    Room room = new Room("in-vain");
    try (Callers callers = new Callers("in-vain")) {
      Attempts attempts = new Attempts();
      try {
        callers.run(() -> service.retriedInVain(room, 0, new Attempts()));
        room.awaitEntered(1, WAIT);

        assertThatThrownBy(() -> service.retriedInVain(room, 1, attempts))
            .isInstanceOf(BulkheadFullException.class);
      } finally {
        room.releaseAll();
      }
      callers.awaitAll(WAIT);
      assertThat(attempts.all())
          .hasSize(3)
          .allSatisfy(a -> assertThat(a.failure()).isInstanceOf(BulkheadFullException.class));
      assertThat(room.entryOrder()).containsExactly(0);
    }
  }
}
