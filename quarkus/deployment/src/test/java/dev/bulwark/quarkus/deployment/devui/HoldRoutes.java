package dev.bulwark.quarkus.deployment.devui;

import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How the test drives the dev-mode application: {@code /hold} starts a bulkhead call and a lock
 * call that stay open (answering once both hold), {@code /release} lets them end.
 */
@ApplicationScoped
public class HoldRoutes {

  @Inject HeldCalls calls;

  void routes(@Observes Router router) {
    router
        .get("/hold")
        .blockingHandler(
            context -> {
              CountDownLatch entered = new CountDownLatch(2);
              new Thread(() -> calls.bulkhead(entered), "held-bulkhead").start();
              new Thread(() -> calls.lock("acct-42", entered), "held-lock").start();
              calls.rate();
              try {
                context.end(entered.await(30, TimeUnit.SECONDS) ? "held" : "not held");
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
