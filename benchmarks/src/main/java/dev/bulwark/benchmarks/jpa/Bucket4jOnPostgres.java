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

  /** A bucket that never runs dry: a billion tokens a second. */
  public Bucket4jOnPostgres() {
    this(BUCKET, 1_000_000_000L);
  }

  /**
   * Bucket {@code id} of {@code perSecond} tokens, refilled greedily at {@code perSecond} a second.
   */
  public Bucket4jOnPostgres(long id, long perSecond) {
    PostgresTarget.prepare(
        "CREATE TABLE IF NOT EXISTS " + TABLE + " (id BIGINT PRIMARY KEY, state BYTEA)",
        "DELETE FROM " + TABLE + " WHERE id = " + id);
    pool = PostgresTarget.pool("bench-bucket4j");
    BucketConfiguration configuration =
        BucketConfiguration.builder()
            .addLimit(
                Bandwidth.builder()
                    .capacity(perSecond)
                    .refillGreedy(perSecond, Duration.ofSeconds(1))
                    .build())
            .build();
    bucket =
        Bucket4jPostgreSQL.selectForUpdateBasedBuilder(pool)
            .table(TABLE)
            .build()
            .builder()
            .build(id, () -> configuration);
  }

  public boolean tryConsume() {
    return bucket.tryConsume(1);
  }

  @Override
  public void close() {
    pool.close();
  }
}
