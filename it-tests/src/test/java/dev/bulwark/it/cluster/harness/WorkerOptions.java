package dev.bulwark.it.cluster.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code name=value} arguments a test gives a worker JVM: what scenario to run and how. Bulwark
 * itself is configured separately, through system properties (MicroProfile Config reads them).
 */
public final class WorkerOptions {

  /** The scenarios a worker can run. */
  public enum Scenario {
    /** Calls of the bulkhead method, each holding its permit for a random time. */
    BULKHEAD,
    /** Calls of the rate-limited method as fast as the threads can make them. */
    RATE,
    /** Calls of the read and write lock methods on random keys. */
    LOCK
  }

  private final Map<String, String> values;

  private WorkerOptions(Map<String, String> values) {
    this.values = values;
  }

  public static WorkerOptions parse(String[] args) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("worker argument is not name=value: " + arg);
      }
      values.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    return new WorkerOptions(values);
  }

  /** Renders options as worker arguments: {@code args("threads", 8, "calls", 20)}. */
  public static List<String> args(Object... namesAndValues) {
    List<String> args = new ArrayList<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      args.add(namesAndValues[i] + "=" + namesAndValues[i + 1]);
    }
    return args;
  }

  public String worker() {
    return required("worker");
  }

  public Scenario scenario() {
    return Scenario.valueOf(required("scenario").toUpperCase(java.util.Locale.ROOT));
  }

  /** The Redis the worker records into (counters, start barrier): never the store under test. */
  public String recordUrl() {
    return required("record-url");
  }

  public String recordPrefix() {
    return required("record-prefix");
  }

  public Path events() {
    return Path.of(required("events"));
  }

  public int threads() {
    return integer("threads", 1);
  }

  /** Calls per thread; the thread also stops at {@link #duration()}. */
  public int calls() {
    return integer("calls", Integer.MAX_VALUE);
  }

  public Duration duration() {
    return duration("duration", Duration.ofSeconds(30));
  }

  /**
   * Calls per thread made even past {@link #duration()}, so a slow machine still gives a scenario
   * the sample its checks need; the thread stops at {@link #maxDuration()} whatever it made.
   */
  public int minCalls() {
    return integer("min-calls", 0);
  }

  public Duration maxDuration() {
    return duration("max-duration", duration());
  }

  public Duration holdMin() {
    return duration("hold-min", Duration.ofMillis(20));
  }

  public Duration holdMax() {
    return duration("hold-max", holdMin());
  }

  /** How long this worker's threads start after the common start instant. */
  public Duration startDelay() {
    return duration("start-delay", Duration.ZERO);
  }

  /** A thread's pause after a rejected call, so fail-fast callers do not spin. */
  public Duration pauseAfterReject() {
    return duration("pause-after-reject", Duration.ZERO);
  }

  /** Whether each rejected call gets its own line (otherwise rejections are only counted). */
  public boolean recordRejections() {
    return Boolean.parseBoolean(values.getOrDefault("record-rejections", "true"));
  }

  /**
   * Whether a writer's body writes to the run's {@link FencedSink} with its fencing token, as it
   * enters and again as its hold ends.
   */
  public boolean fencedSink() {
    return Boolean.parseBoolean(values.getOrDefault("fenced-sink", "false"));
  }

  public int keys() {
    return integer("keys", 16);
  }

  public double writeShare() {
    return Double.parseDouble(values.getOrDefault("write-share", "0.3"));
  }

  private String required(String name) {
    return Optional.ofNullable(values.get(name))
        .orElseThrow(() -> new IllegalArgumentException("worker argument missing: " + name));
  }

  private int integer(String name, int otherwise) {
    String value = values.get(name);
    return value == null ? otherwise : Integer.parseInt(value);
  }

  private Duration duration(String name, Duration otherwise) {
    String value = values.get(name);
    return value == null ? otherwise : Duration.ofMillis(Long.parseLong(value));
  }
}
