package dev.bulwark.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Permit;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.engine.BulwarkEngine;
import dev.bulwark.tck.TestServices;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * The {@code redis} profile: the application keeps the {@code legacy-api} bulkhead (2 at once) in
 * Redis. Its holders are visible in Redis' keys, and a second engine on the same Redis (as another
 * instance of the service would be) shares the two permits with the application.
 */
@QuarkusTest
@TestProfile(RedisProfile.class)
@RequiresServer(TestServices.Service.REDIS)
class RedisStoreTest {

  private static final int LIMIT = 2;
  private static final String HOLDERS = RedisProfile.KEY_PREFIX + "{b:legacy-api}:holders";

  @TestHTTPResource("/")
  URI root;

  @Inject SlowDownstream downstream;

  @AfterEach
  void releaseHeldCalls() {
    downstream.release(LegacyService.DOWNSTREAM);
  }

  @AfterAll
  static void removeKeys() {
    try (RedisClient redis = redis()) {
      redis.keys(RedisProfile.KEY_PREFIX + "*").forEach(redis::del);
    }
  }

  @Test
  void theApplicationsPermitsAreRedisHoldersThatASecondEngineCannotTake() throws Exception {
    downstream.hold(LegacyService.DOWNSTREAM);
    try (RedisClient redis = redis();
        Http http = new Http(root, LIMIT + 1);
        BulwarkEngine other = secondEngine()) {
      List<Future<HttpResponse<String>>> holders = new ArrayList<>();
      for (int i = 0; i < LIMIT; i++) {
        holders.add(http.get("/legacy/report?customer=holder" + i));
      }
      Http.awaitTrue(
          "both calls are inside", () -> downstream.heldCalls(LegacyService.DOWNSTREAM) == LIMIT);

      assertThat(redis.zcard(HOLDERS)).as("holders in " + HOLDERS).isEqualTo(LIMIT);
      assertThat(other.programmatic().bulkhead("legacy-api").tryAcquire())
          .as("a permit for the second engine while the application holds both")
          .isEmpty();
      assertThat(http.get("/legacy/report?customer=third").get().statusCode()).isEqualTo(503);

      downstream.release(LegacyService.DOWNSTREAM);
      for (Future<HttpResponse<String>> holder : holders) {
        assertThat(holder.get(Http.PATIENCE.toMillis(), TimeUnit.MILLISECONDS).statusCode())
            .isEqualTo(200);
      }
      // the application's releases are posted when its calls end, not waited for
      Http.awaitTrue("no holders after both calls ended", () -> redis.zcard(HOLDERS) == 0);
    }
  }

  @Test
  void permitsTheSecondEngineHoldsTurnTheApplicationsCallersAway() throws Exception {
    try (RedisClient redis = redis();
        Http http = new Http(root, 1);
        BulwarkEngine other = secondEngine()) {
      List<Permit> taken = new ArrayList<>();
      try {
        for (int i = 0; i < LIMIT; i++) {
          Optional<Permit> permit = other.programmatic().bulkhead("legacy-api").tryAcquire();
          assertThat(permit).as("permit %d of the second engine", i + 1).isPresent();
          taken.add(permit.get());
        }
        assertThat(redis.zcard(HOLDERS)).isEqualTo(LIMIT);

        HttpResponse<String> rejected = http.get("/legacy/report?customer=late").get();
        assertThat(rejected.statusCode()).isEqualTo(503);
        assertThat(Http.json(rejected).get("type").asText())
            .isEqualTo("tag:bulwark.dev,2025:problem:bulkhead-full");
      } finally {
        taken.forEach(Permit::close);
      }
      // a release is posted to the store, not waited for by the call that ends
      assertThat(other.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(redis.zcard(HOLDERS)).isZero();
      assertThat(http.get("/legacy/report?customer=after").get().statusCode()).isEqualTo(200);
    }
  }

  /** Another instance of the service, as far as the store can tell: its own engine and store. */
  private static BulwarkEngine secondEngine() {
    return BulwarkEngine.start(
        ConfigLookup.of(
            Map.of(
                "bulwark.store",
                "redis",
                "bulwark.redis.url",
                TestServices.redis().url(),
                "bulwark.redis.key-prefix",
                RedisProfile.KEY_PREFIX,
                "bulwark.bulkhead.legacy-api.value",
                Integer.toString(LIMIT))));
  }

  private static RedisClient redis() {
    return RedisClient.create(URI.create(TestServices.redis().url()));
  }
}
