package dev.bulwark.benchmarks.redis;

import dev.bulwark.LockMode;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.BulwarkStoreProvider;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.Outcome;
import dev.bulwark.spi.StoreContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Redis at a million live lock keys: the memory one held lock key takes, and what an acquire plus a
 * release costs Redis with a million keys in the database against none of Bulwark's.
 *
 * <p>The keys are written by the Redis store itself (its {@code lock_acquire} script, through the
 * store's SPI on {@link #THREADS} threads, without the engine: nothing is tracked or renewed in
 * this JVM), each a write lock with a lease of {@link #LEASE_MILLIS}, so all are live while
 * measured. Memory: {@code used_memory} before and after, divided by the keys written. Cost: {@link
 * #PROBES} acquire-plus-release pairs on fresh keys of another lock, per round, measured by Redis
 * ({@code INFO commandstats}: microseconds per EVALSHA; {@code INFO cpu}: server CPU per pair),
 * three rounds with no keys and three with the million. Everything is under {@link #PREFIX} and is
 * deleted at the end ({@code SCAN} and {@code UNLINK}; the server is shared).
 *
 * <p>Arguments: the number of keys (default 1 000 000), then rounds (default 3).
 */
public final class MillionLockKeys {

  static final String PREFIX = "bench:scale-keys:";
  static final int THREADS = 16;
  static final int PROBES = 20_000;
  static final int PROBE_THREADS = 8;

  /** Longer than the run, so that every key is live while measured (keys expire at twice this). */
  static final long LEASE_MILLIS = 2 * 60 * 60 * 1000L;

  private static final LockSpec FILL = new LockSpec("bench-keys", LEASE_MILLIS);
  private static final LockSpec PROBE = new LockSpec("bench-probe", LEASE_MILLIS);

  private MillionLockKeys() {}

  public static void main(String[] args) throws Exception {
    int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    BulwarkStore store = openStore();
    AtomicLong requestIds = new AtomicLong();
    try (Jedis redis = new Jedis(RedisTarget.host(), RedisTarget.port())) {
      try {
        KeySweep.delete(redis, PREFIX + "*");
        System.out.printf("load %.1f, dbsize %d%n", MachineLoad.oneMinute(), redis.dbSize());
        // the first pass compiles the client's path and fills the pool: not measured
        probe(store, redis, requestIds, "warm-up", 0);
        KeySweep.delete(redis, PREFIX + "{l:" + PROBE.name() + ":*");
        List<Probe> empty = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
          empty.add(probe(store, redis, requestIds, "empty", round));
          KeySweep.delete(redis, PREFIX + "{l:" + PROBE.name() + ":*");
        }
        long before = usedMemory(redis);
        long dbBefore = redis.dbSize();
        long fillStart = System.nanoTime();
        fill(store, keys, requestIds);
        double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
        long after = usedMemory(redis);
        long dbAfter = redis.dbSize();
        long live = KeySweep.count(redis, PREFIX + "{l:" + FILL.name() + ":*");
        String sample = PREFIX + "{l:" + FILL.name() + ":*";
        System.out.printf(
            "filled %d keys in %.0f s (%.0f keys/s, %d threads), load %.1f%n",
            keys, fillSeconds, keys / fillSeconds, THREADS, MachineLoad.oneMinute());
        System.out.printf(
            "used_memory %d -> %d bytes: %.1f bytes per key; dbsize %d -> %d; keys found %d%n",
            before, after, (after - before) / (double) keys, dbBefore, dbAfter, live);
        System.out.println("one key: " + describeOne(redis, sample));
        List<Probe> full = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
          full.add(probe(store, redis, requestIds, keys + " keys", round));
          KeySweep.delete(redis, PREFIX + "{l:" + PROBE.name() + ":*");
        }
        System.out.println();
        System.out.println("medians over " + rounds + " rounds:");
        Probe.printHeader();
        Probe.median(empty).print();
        Probe.median(full).print();
      } finally {
        long deleted = KeySweep.delete(redis, PREFIX + "*");
        System.out.printf(
            "deleted %d keys; used_memory now %d; %d keys of %s left%n",
            deleted, usedMemory(redis), KeySweep.count(redis, PREFIX + "*"), PREFIX);
      }
    } finally {
      store.close();
    }
  }

  static BulwarkStore openStore() {
    Map<String, String> config =
        Map.of(
            "bulwark.redis.url",
            RedisTarget.URL,
            "bulwark.redis.key-prefix",
            PREFIX,
            "bulwark.redis.pool-size",
            Integer.toString(THREADS * 2));
    StoreContext context =
        new StoreContext() {
          @Override
          public Optional<String> config(String key) {
            return Optional.ofNullable(config.get(key));
          }

          @Override
          public GrantListener grantListener() {
            return (requestId, token) -> {};
          }
        };
    for (BulwarkStoreProvider provider : ServiceLoader.load(BulwarkStoreProvider.class)) {
      if (provider.id().equals("redis")) {
        return provider.open(context);
      }
    }
    throw new IllegalStateException("no Redis store on the class path");
  }

  /** Write-locks {@code keys} distinct keys, each held (and so live) until deleted. */
  private static void fill(BulwarkStore store, int keys, AtomicLong requestIds) throws Exception {
    AtomicLong next = new AtomicLong();
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        done.add(
            pool.submit(
                () -> {
                  for (long i = next.getAndIncrement(); i < keys; i = next.getAndIncrement()) {
                    Grant grant =
                        store
                            .locks()
                            .acquire(
                                FILL,
                                "key-" + i,
                                LockMode.WRITE,
                                requestIds.incrementAndGet(),
                                false);
                    if (grant.outcome() != Outcome.GRANTED) {
                      throw new IllegalStateException("key-" + i + " was not granted: " + grant);
                    }
                    if ((i + 1) % 100_000 == 0) {
                      double seconds = (System.nanoTime() - start) / 1e9;
                      System.out.printf(
                          "  %d keys, %.0f s, load %.1f%n",
                          i + 1, seconds, MachineLoad.oneMinute());
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  /** {@link #PROBES} write-lock acquires plus releases on fresh keys, measured by Redis. */
  private static Probe probe(
      BulwarkStore store, Jedis redis, AtomicLong requestIds, String size, int round)
      throws Exception {
    AtomicLong next = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(PROBE_THREADS);
    RedisStats before = RedisStats.read(redis);
    long start = System.nanoTime();
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < PROBE_THREADS; t++) {
        done.add(
            pool.submit(
                () -> {
                  for (long i = next.getAndIncrement(); i < PROBES; i = next.getAndIncrement()) {
                    String key = "probe-" + round + "-" + i;
                    long id = requestIds.incrementAndGet();
                    store.locks().acquire(PROBE, key, LockMode.WRITE, id, false);
                    store.locks().release(PROBE, key, id);
                  }
                  return null;
                }));
      }
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      pool.shutdown();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    RedisStats after = RedisStats.read(redis);
    Probe probe =
        new Probe(
            size,
            round,
            PROBES / seconds,
            after.microsPerCall(before, "evalsha"),
            (after.cpuMicros() - before.cpuMicros()) / (double) PROBES,
            after.calls(before, "evalsha") - 2L * PROBES,
            MachineLoad.oneMinute());
    if (round <= 1) {
      Probe.printHeader();
    }
    probe.print();
    return probe;
  }

  /** The median of a few readings: other clients of the server allocate and free meanwhile. */
  private static long usedMemory(Jedis redis) throws InterruptedException {
    long[] readings = new long[5];
    for (int i = 0; i < readings.length; i++) {
      readings[i] = RedisStats.read(redis).usedMemory();
      Thread.sleep(200);
    }
    java.util.Arrays.sort(readings);
    return readings[readings.length / 2];
  }

  private static String describeOne(Jedis redis, String pattern) {
    ScanResult<String> page =
        redis.scan(ScanParams.SCAN_POINTER_START, new ScanParams().match(pattern).count(1000));
    if (page.getResult().isEmpty()) {
      return "none found";
    }
    String key = page.getResult().get(0);
    return key
        + " ("
        + redis.type(key)
        + ", "
        + redis.hgetAll(key)
        + ", MEMORY USAGE "
        + redis.memoryUsage(key)
        + " bytes, PTTL "
        + redis.pttl(key)
        + " ms)";
  }

  /** One round of acquire-plus-release pairs. */
  private record Probe(
      String size,
      int round,
      double pairsPerSecond,
      double microsPerScript,
      double cpuMicrosPerPair,
      long otherScripts,
      double load) {

    static void printHeader() {
      System.out.printf(
          "%-14s %5s %9s %12s %13s %13s %5s%n",
          "keys", "round", "pairs/s", "us/EVALSHA", "cpu us/pair", "others' scr", "load");
    }

    void print() {
      System.out.printf(
          "%-14s %5s %9.0f %12.2f %13.1f %13d %5.1f%n",
          size,
          round == 0 && !size.equals("warm-up") ? "med" : Integer.toString(round),
          pairsPerSecond,
          microsPerScript,
          cpuMicrosPerPair,
          otherScripts,
          load);
    }

    static Probe median(List<Probe> rounds) {
      return new Probe(
          rounds.get(0).size,
          0,
          Percentiles.median(rounds.stream().mapToDouble(Probe::pairsPerSecond).toArray()),
          Percentiles.median(rounds.stream().mapToDouble(Probe::microsPerScript).toArray()),
          Percentiles.median(rounds.stream().mapToDouble(Probe::cpuMicrosPerPair).toArray()),
          (long) Percentiles.median(rounds.stream().mapToDouble(Probe::otherScripts).toArray()),
          Percentiles.median(rounds.stream().mapToDouble(Probe::load).toArray()));
    }
  }
}
