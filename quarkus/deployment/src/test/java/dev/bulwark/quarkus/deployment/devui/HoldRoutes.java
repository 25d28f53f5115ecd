package dev.bulwark.quarkus.deployment.devui;

import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How the test drives the dev-mode application: {@code /hold} starts a bulkhead call, a lock call
 * and a call holding the one permit of {@code browser-queue} that stay open (answering once they
 * hold), and a second call of {@code browser-queue} that waits in its queue; {@code /release} lets
 * them end.
 */
@ApplicationScoped
public class HoldRoutes {

  @Inject HeldCalls calls;

  void routes(@Observes Router router) {
    router
        .get("/hold")
        .blockingHandler(
            context -> {
              CountDownLatch entered = new CountDownLatch(3);
              new Thread(() -> calls.bulkhead(entered), "held-bulkhead").start();
              new Thread(() -> calls.lock("acct-42", entered), "held-lock").start();
              new Thread(() -> calls.queue(entered), "held-queue").start();
              calls.rate();
              try {
                boolean held = entered.await(30, TimeUnit.SECONDS);
                // the queue's only permit is held: this call waits in the queue
                new Thread(() -> calls.queue(new CountDownLatch(1)), "queued").start();
                context.end(held ? "held" : "not held");
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                context.fail(e);
              }
            });
    router
        .get("/release")
        .handler(
            context -> {
              HeldCalls.release.countDown();
              context.end("released");
            });
  }
}
