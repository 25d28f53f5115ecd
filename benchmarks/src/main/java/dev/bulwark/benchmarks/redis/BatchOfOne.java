package dev.bulwark.benchmarks.redis;

import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import redis.clients.jedis.Jedis;

/**
 * What a batch of one operation costs beside the single script it replaces: the Redis store sends
 * every batch through its batch script, a lone acquire or release included. One thread, no
 * contention: pairs of acquire and release on one bulkhead, sent as single calls and as batches of
 * one, in interleaved rounds. Per pair: the client's wall time, and the server's time inside {@code
 * EVALSHA} ({@link RedisStats}, server-wide: run it on a server of its own for clean figures).
 *
 * <p>Arguments: rounds (default 5) and pairs per round (default 5000).
 */
public final class BatchOfOne {

  private static final int WARM_UP_PAIRS = 5_000;

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
    Map<String, String> config =
        Map.of(
            "bulwark.redis.url",
            RedisTarget.URL,
            "bulwark.redis.key-prefix",
            "bench:batch-of-one:" + System.nanoTime() + ":");
    StoreContext context =
        new StoreContext() {
          @Override
          public Optional<String> config(String key) {
            return Optional.ofNullable(config.get(key));
          }

          @Override
          public GrantListener grantListener() {
            return (request, token) -> {};
          }
        };
    BulwarkStoreProvider redis =
        ServiceLoader.load(BulwarkStoreProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(p -> p.id().equals("redis"))
            .findFirst()
            .orElseThrow();
    PermitSpec spec = new PermitSpec("pool", 1, 60_000);
    long[] requestIds = {0};
    try (BulwarkStore store = redis.open(context);
        Jedis stats = new Jedis(RedisTarget.host(), RedisTarget.port())) {
      Runnable single =
          () -> {
            long id = ++requestIds[0];
            store.permits().acquire(spec, id, false);
            store.permits().release(spec, id);
          };
      Runnable batchOfOne =
          () -> {
            long id = ++requestIds[0];
            store.permits().apply(spec, List.of(Operation.acquire(id, false)));
            store.permits().apply(spec, List.of(Operation.release("", id)));
          };
      run(single, WARM_UP_PAIRS);
      run(batchOfOne, WARM_UP_PAIRS);
      List<double[]> singles = new ArrayList<>();
      List<double[]> batches = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        singles.add(measure(single, pairs, stats));
        batches.add(measure(batchOfOne, pairs, stats));
      }
      System.out.printf(
          "%d rounds of %d acquire+release pairs, medians (per pair: client µs, server µs in"
              + " EVALSHA)%n",
          rounds, pairs);
      System.out.printf("single scripts  %8.1f %8.1f%n", median(singles, 0), median(singles, 1));
      System.out.printf("batches of one  %8.1f %8.1f%n", median(batches, 0), median(batches, 1));
    }
  }

  private static void run(Runnable pair, int pairs) {
    for (int i = 0; i < pairs; i++) {
      pair.run();
    }
  }

  /** Per pair: client microseconds, server microseconds in EVALSHA. */
  private static double[] measure(Runnable pair, int pairs, Jedis stats) {
    RedisStats before = RedisStats.read(stats);
    long start = System.nanoTime();
    run(pair, pairs);
    long nanos = System.nanoTime() - start;
    RedisStats after = RedisStats.read(stats);
    return new double[] {nanos / 1000.0 / pairs, after.micros(before, "evalsha") / (double) pairs};
  }

  private static double median(List<double[]> rounds, int field) {
    double[] values = rounds.stream().mapToDouble(r -> r[field]).toArray();
    Arrays.sort(values);
    return values[values.length / 2];
  }

  private BatchOfOne() {}
}
