package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.RateLimitType;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateSpec;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/** define.lua: each JVM records what it enforces under a name and learns of a differing one. */
@ExtendWith(RedisExtension.class)
class DefinitionsTest {

  private static final long SECOND = 1_000_000_000L;

  private TestRedis test;
  private RedisClient redis;
  private RecordingStore a;
  private RecordingStore b;

  @BeforeEach
  void open(TestRedis test) {
    this.test = test;
    this.redis = test.redis();
    a = test.open();
    b = test.open();
  }

  @Test
  void aBulkheadDefinitionIsReportedOnlyWhenAnotherJvmRecordedADifferentLimit() {
    PermitSpec ten = new PermitSpec("pool", 10, 30_000);
    assertThat(a.store().permits().define(ten)).isEmpty();
    assertThat(a.store().permits().define(ten)).isEmpty();
    assertThat(b.store().permits().define(ten)).isEmpty();
    // Lease and waiting time are per JVM: they are not part of the definition.
    assertThat(b.store().permits().define(new PermitSpec("pool", 10, 5_000))).isEmpty();

    assertThat(b.store().permits().define(new PermitSpec("pool", 5, 30_000)))
        .hasValueSatisfying(other -> assertThat(other).contains("value=10").contains(b.instance()));
    // a recorded it last? No: b did (value=5), so a learns of b's record now.
    assertThat(a.store().permits().define(ten))
        .hasValueSatisfying(other -> assertThat(other).contains("value=5").contains(b.instance()));

    String key = test.prefix() + "{b:pool}:definition";
    assertThat(redis.type(key)).isEqualTo("hash");
    assertThat(redis.hget(key, "definition")).isEqualTo("value=10");
    assertThat(redis.hget(key, "instance")).isEqualTo(a.instance());
    assertThat(redis.pttl(key)).isPositive().isLessThanOrEqualTo(Duration.ofDays(30).toMillis());
    assertThat(b.store().permits().define(new PermitSpec("other", 5, 30_000))).isEmpty();
  }

  @Test
  void aRateLimitDefinitionDiffersInTypePermitsOrWindow() {
    RateSpec base = new RateSpec("api", RateLimitType.SMOOTH, 100, SECOND);
    assertThat(a.store().rates().define(base)).isEmpty();
    assertThat(b.store().rates().define(base)).isEmpty();

    assertThat(b.store().rates().define(new RateSpec("api", RateLimitType.FIXED, 100, SECOND)))
        .hasValueSatisfying(
            other ->
                assertThat(other)
                    .contains("type=SMOOTH,value=100,window=1000ms")
                    .contains(b.instance()));
    assertThat(a.store().rates().define(base))
        .hasValueSatisfying(
            other -> assertThat(other).contains("type=FIXED").contains(b.instance()));
    assertThat(b.store().rates().define(new RateSpec("api", RateLimitType.SMOOTH, 50, SECOND)))
        .hasValueSatisfying(
            other -> assertThat(other).contains("value=100").contains(a.instance()));
    assertThat(a.store().rates().define(new RateSpec("api", RateLimitType.SMOOTH, 50, 2 * SECOND)))
        .hasValueSatisfying(other -> assertThat(other).contains("window=1000ms"));

    String key = test.prefix() + "{r:api}:definition";
    assertThat(redis.hget(key, "definition")).isEqualTo("type=SMOOTH,value=50,window=2000ms");
    assertThat(redis.pttl(key)).isPositive();
    // Bulkheads and rate limits of one name are separate records.
    assertThat(a.store().permits().define(new PermitSpec("api", 3, 1_000))).isEmpty();
  }
}
