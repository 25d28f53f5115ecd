package dev.bulwark.benchmarks.jpa;

import com.zaxxer.hikari.HikariDataSource;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import java.time.Duration;

/**
 * The rate-limit peer: one Bucket4j bucket shared by every caller, kept in a PostgreSQL table
 * through Bucket4j's {@code SELECT … FOR UPDATE} proxy manager (the same statements as the floor,
 * plus the bucket's state serialised into a {@code BYTEA}).
 */
public final class Bucket4jOnPostgres implements AutoCloseable {

  static final String TABLE = "bench_bucket4j";
  static final long BUCKET = 1L;

  private final HikariDataSource pool;
  private final Bucket bucket;

  public Bucket4jOnPostgres() {
    PostgresTarget.prepare(
        "CREATE TABLE IF NOT EXISTS " + TABLE + " (id BIGINT PRIMARY KEY, state BYTEA)",
        "DELETE FROM " + TABLE);
    pool = PostgresTarget.pool("bench-bucket4j");
    // a billion tokens a second, refilled greedily: the bucket never runs dry
    BucketConfiguration configuration =
        BucketConfiguration.builder()
            .addLimit(
                Bandwidth.builder()
                    .capacity(1_000_000_000L)
                    .refillGreedy(1_000_000_000L, Duration.ofSeconds(1))
                    .build())
            .build();
    bucket =
        Bucket4jPostgreSQL.selectForUpdateBasedBuilder(pool)
            .table(TABLE)
            .build()
            .builder()
            .build(BUCKET, () -> configuration);
  }

  public boolean tryConsume() {
    return bucket.tryConsume(1);
  }

  @Override
  public void close() {
    pool.close();
  }
}
