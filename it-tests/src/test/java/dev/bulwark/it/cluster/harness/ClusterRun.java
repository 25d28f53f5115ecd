package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.cluster.history.History;
import dev.bulwark.it.cluster.history.HistoryChecker;
import dev.bulwark.it.cluster.history.HistoryRule;
import dev.bulwark.it.cluster.history.Verdict;
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
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import redis.clients.jedis.RedisClient;

/**
 * One multi-JVM run: its folder under {@code target/cluster-runs} (event files, worker output,
 * figures), its space in the store under test and its key prefix in the recording Redis (the one
 * {@link TestServices} finds) — unique per run so runs never see each other — and the worker JVMs.
 * The store under test is whatever the test hands in (Redis, the JPA store on a database); the
 * records always go to Redis. {@link #close()} kills the workers, deletes the run's records and
 * cleans up its space in the store.
 */
public final class ClusterRun implements AutoCloseable {

  /**
   * How long a worker JVM may take to boot Weld (and Hibernate), warm up and reach the start
   * barrier: under libfaketime, which makes every clock read of the JVM slow, that can take a
   * minute on a loaded machine.
   */
  public static final Duration BOOT_TIMEOUT = Duration.ofSeconds(120);

  /** How far in the future the common start lies, so every worker is asleep waiting for it. */
  private static final Duration START_LEAD = Duration.ofMillis(300);

  private final String id;
  private final Path dir;
  private final TestServices.Endpoint recordRedis;
  private final RedisClient record;
  private final String recordPrefix;
  private final StoreUnderTest store;
  private final StoreSpace space;
  private final WorkerProcesses processes;
  private final Map<String, String> storeConfig = new LinkedHashMap<>();
  private final Path historyFile;
  private boolean historyWritten;
  private long start;

  public ClusterRun(String name, StoreUnderTest store) {
    this.recordRedis = TestServices.redis();
    this.id =
        name
            + "-"
            + store.toString().replaceAll("[^A-Za-z0-9]+", "-")
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
    this.historyFile =
        Path.of(System.getProperty("basedir", "."), "target", "histories", id + ".history.tsv");
    this.recordPrefix = "bulwark-it:" + id + ":record:";
    this.record = RedisClient.create(URI.create(recordRedis.url()));
    this.processes = new WorkerProcesses(dir);
    this.store = store;
    try {
      this.space = store.open(id, dir);
    } catch (RuntimeException | Error e) {
      record.close();
      throw e;
    }
    storeConfig.putAll(space.config());
  }

  /** Sets a config key of every worker started from now on ({@code bulwark.failure-policy} …). */
  public ClusterRun config(String key, String value) {
    storeConfig.put(key, value);
    return this;
  }

  public String id() {
    return id;
  }

  public StoreUnderTest store() {
    return store;
  }

  /** A config key of the store under test as the workers get it ({@code bulwark.jpa.url} …). */
  public String storeSetting(String key) {
    return storeConfig.get(key);
  }

  public Path dir() {
    return dir;
  }

  public LiveCounters counters() {
    return new LiveCounters(record, recordPrefix);
  }

  /** The run's fenced resource, as the workers started with {@code fenced-sink=true} write it. */
  public FencedSink sink() {
    return new FencedSink(record, recordPrefix);
  }

  /**
   * Starts a worker JVM with the run's store config plus {@code limits} (per-name config keys),
   * extra environment {@code env}, and the scenario {@code args} (see {@link WorkerOptions}).
   */
  public WorkerProcesses.Worker worker(
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
  public List<WorkerProcesses.Worker> workers(
      int count, Map<String, String> limits, List<String> args) {
    List<WorkerProcesses.Worker> started = new java.util.ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      started.add(worker("w" + i, limits, Map.of(), args));
    }
    return started;
  }

  /** Waits for every worker started so far to be ready, then starts them together. */
  public long startAll() {
    int workers = processes.all().size();
    start =
        new StartBarrier(record, recordPrefix)
            .awaitReadyAndRelease(workers, BOOT_TIMEOUT, START_LEAD, processes::firstFailure);
    return start;
  }

  /**
   * Waits for every worker of every run to be ready, then starts them all at one instant, which it
   * returns: runs that share an event (an outage) see it at the same moment of their scenario.
   */
  public static long startTogether(Collection<ClusterRun> runs) {
    for (ClusterRun run : runs) {
      new StartBarrier(run.record, run.recordPrefix)
          .awaitReady(run.processes.all().size(), BOOT_TIMEOUT, run.processes::firstFailure);
    }
    long common = System.nanoTime() + START_LEAD.toNanos();
    for (ClusterRun run : runs) {
      new StartBarrier(run.record, run.recordPrefix).release(run.processes.all().size(), common);
      run.start = common;
    }
    return common;
  }

  /** The common start instant ({@link System#nanoTime()}). */
  public long start() {
    return start;
  }

  /** Waits for {@code workers} to end, each with exit code 0. */
  public void awaitExit(List<WorkerProcesses.Worker> workers, Duration timeout) {
    processes.awaitExit(workers, timeout);
  }

  /** Waits for every worker that was not killed to end, each with exit code 0. */
  public void awaitAll(Duration timeout) {
    processes.awaitExit(processes.all().stream().filter(w -> !w.killed()).toList(), timeout);
  }

  public List<WorkerProcesses.Worker> workers() {
    return processes.all();
  }

  public Recording recording() {
    return Recording.load(processes.all());
  }

  /** Where the run's history is written: kept when the test fails (see {@link KeptHistories}). */
  public Path historyFile() {
    return historyFile;
  }

  /**
   * Writes the run's full history (from {@code recording}) to {@link #historyFile()} and checks it
   * against {@code rules}; reports each rule's outcome and fails, naming the file, if one is
   * broken.
   */
  public Verdict check(Recording recording, HistoryRule... rules) {
    History history = writeHistory(recording);
    Verdict verdict = HistoryChecker.of(rules).check(history);
    report("history: " + verdict.summary());
    HistoryChecker.assertPassed(verdict, historyFile);
    return verdict;
  }

  /** Like {@link #check} but only reports the verdict: for a run that measures a known breach. */
  public Verdict judge(Recording recording, HistoryRule... rules) {
    Verdict verdict = HistoryChecker.of(rules).check(writeHistory(recording));
    report("history (not asserted): " + verdict.summary());
    return verdict;
  }

  private History writeHistory(Recording recording) {
    History history = recording.history();
    history.write(historyFile);
    historyWritten = true;
    KeptHistories.written(historyFile);
    return history;
  }

  /** Writes a measured figure to the test output and to {@code figures.txt} of the run. */
  public void report(String line) {
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

  @Override
  public void close() {
    try {
      processes.close();
      if (!historyWritten && !processes.all().isEmpty()) {
        // a test that failed before checking still leaves what its workers recorded
        writeHistory(recording());
      }
    } finally {
      try {
        RedisKeys.deleteByPrefix(record, recordPrefix);
      } finally {
        try {
          record.close();
        } finally {
          space.close();
        }
      }
    }
  }
}
