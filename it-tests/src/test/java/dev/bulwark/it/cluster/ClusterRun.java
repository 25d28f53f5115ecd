package dev.bulwark.it.cluster;

import dev.bulwark.tck.TestServices;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * One multi-JVM run: its folder under {@code target/cluster-runs} (event files, worker output,
 * figures), its key prefixes — one for the store under test, one for the records — unique per run
 * so runs never see each other, the recording Redis (the one {@link TestServices} finds), and the
 * worker JVMs. By default the store under test is that same Redis, under its own prefix; a test may
 * point the store elsewhere (a server it stops, a cluster). {@link #close()} kills the workers and
 * deletes the run's keys from the recording Redis.
 */
final class ClusterRun implements AutoCloseable {

  /** How long a worker JVM may take to boot Weld and reach the start barrier. */
  static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);

  /** How far in the future the common start lies, so every worker is asleep waiting for it. */
  private static final Duration START_LEAD = Duration.ofMillis(300);

  private final String id;
  private final Path dir;
  private final TestServices.Endpoint recordRedis;
  private final RedisClient record;
  private final String recordPrefix;
  private final String storePrefix;
  private final WorkerProcesses processes;
  private final Map<String, String> storeConfig = new LinkedHashMap<>();
  private long start;

  ClusterRun(String name) {
    this.recordRedis = TestServices.redis();
    this.id =
        name
            + "-"
            + LocalDateTime.now().format(DateTimeFormatter.ofPattern("HHmmss"))
            + "-"
            + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000));
    this.dir = Path.of(System.getProperty("basedir", "."), "target", "cluster-runs", id);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.recordPrefix = "bulwark-it:" + id + ":record:";
    this.storePrefix = "bulwark-it:" + id + ":store:";
    this.record = RedisClient.create(URI.create(recordRedis.url()));
    this.processes = new WorkerProcesses(dir);
    storeConfig.put("bulwark.store", "redis");
    storeConfig.put("bulwark.redis.url", recordRedis.url());
    storeConfig.put("bulwark.redis.key-prefix", storePrefix);
    storeConfig.put("bulwark.redis.wake-up-check-interval", "500ms");
    storeConfig.put("bulwark.redis.connect-timeout", "2s");
    storeConfig.put("bulwark.redis.read-timeout", "2s");
    storeConfig.put("bulwark.redis.reconnect-interval", "1s");
  }

  /** Points the store under test at a standalone server of the test's own. */
  ClusterRun storeUrl(String url) {
    storeConfig.put("bulwark.redis.url", url);
    return this;
  }

  /** Points the store under test at a Redis Cluster. */
  ClusterRun storeClusterNodes(String nodes) {
    storeConfig.remove("bulwark.redis.url");
    storeConfig.put("bulwark.redis.cluster-nodes", nodes);
    return this;
  }

  /** Sets a config key of every worker started from now on ({@code bulwark.failure-policy} …). */
  ClusterRun config(String key, String value) {
    storeConfig.put(key, value);
    return this;
  }

  String storePrefix() {
    return storePrefix;
  }

  Path dir() {
    return dir;
  }

  LiveCounters counters() {
    return new LiveCounters(record, recordPrefix);
  }

  /**
   * Starts a worker JVM with the run's store config plus {@code limits} (per-name config keys),
   * extra environment {@code env}, and the scenario {@code args} (see {@link WorkerOptions}).
   */
  WorkerProcesses.Worker worker(
      String name, Map<String, String> limits, Map<String, String> env, List<String> args) {
    Map<String, String> properties = new LinkedHashMap<>(storeConfig);
    properties.putAll(limits);
    List<String> all =
        new java.util.ArrayList<>(
            List.of("record-url=" + recordRedis.url(), "record-prefix=" + recordPrefix));
    all.addAll(args);
    return processes.start(name, all, properties, env);
  }

  /**
   * Starts {@code count} alike workers, {@code w0} … {@code w<count-1>}, on this machine's clock.
   */
  List<WorkerProcesses.Worker> workers(int count, Map<String, String> limits, List<String> args) {
    List<WorkerProcesses.Worker> started = new java.util.ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      started.add(worker("w" + i, limits, Map.of(), args));
    }
    return started;
  }

  /** Waits for every worker started so far to be ready, then starts them together. */
  long startAll() {
    int workers = processes.all().size();
    start =
        new StartBarrier(record, recordPrefix)
            .awaitReadyAndRelease(workers, BOOT_TIMEOUT, START_LEAD, processes::firstFailure);
    return start;
  }

  /** The common start instant ({@link System#nanoTime()}). */
  long start() {
    return start;
  }

  /** Waits for {@code workers} to end, each with exit code 0. */
  void awaitExit(List<WorkerProcesses.Worker> workers, Duration timeout) {
    processes.awaitExit(workers, timeout);
  }

  /** Waits for every worker that was not killed to end, each with exit code 0. */
  void awaitAll(Duration timeout) {
    processes.awaitExit(processes.all().stream().filter(w -> !w.killed()).toList(), timeout);
  }

  List<WorkerProcesses.Worker> workers() {
    return processes.all();
  }

  Recording recording() {
    return Recording.load(processes.all());
  }

  /** Writes a measured figure to the test output and to {@code figures.txt} of the run. */
  void report(String line) {
    String text = "[" + id + "] " + line;
    System.out.println(text);
    try {
      Files.writeString(
          dir.resolve("figures.txt"),
          text + "\n",
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static double millis(long nanos) {
    return nanos / 1_000_000.0;
  }

  @Override
  public void close() {
    try {
      processes.close();
    } finally {
      try {
        deleteKeys(recordPrefix);
        deleteKeys(storePrefix);
      } finally {
        record.close();
      }
    }
  }

  private void deleteKeys(String prefix) {
    String cursor = ScanParams.SCAN_POINTER_START;
    ScanParams match = new ScanParams().match(prefix + "*").count(500);
    do {
      ScanResult<String> page = record.scan(cursor, match);
      if (!page.getResult().isEmpty()) {
        record.unlink(page.getResult().toArray(String[]::new));
      }
      cursor = page.getCursor();
    } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
  }
}
