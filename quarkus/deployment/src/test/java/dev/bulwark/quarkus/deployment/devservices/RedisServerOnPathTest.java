package dev.bulwark.quarkus.deployment.devservices;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Bulwark;
import dev.bulwark.DistributedBulkhead;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * {@code bulwark.store=redis} with no Redis configured, in test mode, and a {@code redis-server} on
 * the PATH: the application gets a server of its own on a free port, and a guarded call really
 * takes its permit there.
 */
@EnabledIf(
    value = "dev.bulwark.quarkus.deployment.devservices.RedisServers#onPathOrCi",
    disabledReason =
        "no redis-server on the PATH (install Debian's redis-server; under CI=true"
            + " this test runs and fails instead)")
class RedisServerOnPathTest {

  private static final String PREFIX = "bulwark-devservices-test:";

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .withApplicationRoot(
              archive ->
                  archive.addClasses(Guarded.class, RedisServers.class, ExecutableOnPath.class))
          .overrideConfigKey("quarkus.http.test-port", "0")
          .overrideConfigKey("bulwark.store", "redis")
          .overrideConfigKey("bulwark.redis.key-prefix", PREFIX);

  @Inject Guarded guarded;
  @Inject Bulwark bulwark;

  @ConfigProperty(name = "bulwark.redis.url")
  String url;

  @Test
  void theUrlIsOfARedisServerThisJvmStartedFromThePath() {
    URI redis = URI.create(url);
    assertThat(redis.getHost()).isEqualTo("127.0.0.1");
    try (Jedis jedis = new Jedis(redis.getHost(), redis.getPort())) {
      String info = jedis.info("server");
      assertThat(RedisServers.field(info, "executable")).endsWith("redis-server");
      long pid = Long.parseLong(RedisServers.field(info, "process_id"));
      assertThat(ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(ProcessHandle::pid))
          .as("the server's parent process")
          .contains(ProcessHandle.current().pid());
    }
  }

  @Test
  void aGuardedCallHoldsItsPermitInThatServer() throws Exception {
    URI redis = URI.create(url);
    try (Jedis jedis = new Jedis(redis.getHost(), redis.getPort())) {
      CompletableFuture<Void> call = CompletableFuture.runAsync(guarded::hold);
      try {
        assertThat(Guarded.entered.await(10, TimeUnit.SECONDS)).as("the call started").isTrue();
        Set<String> keys = jedis.keys(PREFIX + "*");
        assertThat(keys).as("Bulwark's keys in the started server").isNotEmpty();
        assertThat(bulwark.bulkhead("devservices").inspect().holders()).hasSize(1);
      } finally {
        Guarded.release.countDown();
      }
      call.get(10, TimeUnit.SECONDS);
      // the release is posted when the call returns: it reaches the server a moment later
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!bulwark.bulkhead("devservices").inspect().holders().isEmpty()) {
        assertThat(System.nanoTime() - deadline).as("the permit released within 10 s").isNegative();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
      }
    }
  }

  @ApplicationScoped
  public static class Guarded {
    static final CountDownLatch entered = new CountDownLatch(1);
    static final CountDownLatch release = new CountDownLatch(1);

    @DistributedBulkhead(name = "devservices", value = 2)
    public void hold() {
      entered.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
