package dev.bulwark.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the JMH results ({@code -rf csv}) of interleaved runs of two builds — files named {@code
 * <label>-<round>.csv} in one directory, as {@code scripts/before-after.sh} writes them — and
 * prints, for each measured case, its ratio to the floor of the same run (the round-trip or JDBC
 * floor), the median of those ratios over the rounds for each build, the change from the first
 * label to the second and the target. A ratio is taken within one run only, so that the load of the
 * machine, which changes from one run to the next, cancels out as far as it can.
 *
 * <p>Arguments: the directory, then optionally the labels in order (default {@code before after}).
 */
public final class BeforeAfter {

  /** One measured case: a benchmark, the floor it is divided by and what the issue asks of it. */
  record Case(String store, String what, String benchmark, String floor, double target) {

    /** No ratio target: the case must not get slower than before (one thread). */
    static final double NO_SLOWER = -1;

    /** No target: a peer, or a second floor, for contrast. */
    static final double NONE = Double.NaN;

    /** Bulwark's own case, through the interceptors, rather than a peer's. */
    boolean guarded() {
      return !benchmark.startsWith("redisson") && !benchmark.startsWith("bucket4j");
    }

    String targetText() {
      if (Double.isNaN(target)) {
        return "–";
      }
      return target == NO_SLOWER ? "no slower" : String.format(Locale.ROOT, "≥ %.1f", target);
    }
  }

  static final String REDIS = "RedisThroughInterceptors";
  static final String JPA = "JpaThroughInterceptors";

  static final List<Case> CASES =
      List.of(
          new Case(
              REDIS, "bulkhead of 8, acquire + release", "bulkhead", "floorTwoRoundTrips", 1.5),
          new Case(REDIS, "write lock, 64 keys", "writeLock", "floorTwoRoundTrips", 1.0),
          new Case(REDIS, "read lock, 95 % reads", "readMostly", "floorTwoRoundTrips", 1.2),
          new Case(REDIS, "rate limit, hot key, all granted", "rateHot", "floorOneRoundTrip", 2.0),
          new Case(REDIS, "rate limit 1,000/s, most rejected", "rateTight", "floorOneRoundTrip", 5),
          new Case(
              REDIS,
              "one thread: bulkhead",
              "bulkheadOneThread",
              "floorTwoRoundTripsOneThread",
              Case.NO_SLOWER),
          new Case(
              REDIS,
              "one thread: write lock",
              "writeLockOneThread",
              "floorTwoRoundTripsOneThread",
              Case.NO_SLOWER),
          new Case(
              REDIS,
              "one thread: rate limit",
              "rateHotOneThread",
              "floorOneRoundTripOneThread",
              Case.NO_SLOWER),
          new Case(
              REDIS,
              "Redisson RSemaphore(8)",
              "redissonSemaphore",
              "floorTwoRoundTrips",
              Case.NONE),
          new Case(
              REDIS,
              "Redisson write lock, 64 keys",
              "redissonWriteLock",
              "floorTwoRoundTrips",
              Case.NONE),
          new Case(
              REDIS,
              "Redisson read lock, 95 % reads",
              "redissonReadMostly",
              "floorTwoRoundTrips",
              Case.NONE),
          new Case(
              REDIS,
              "Redisson rate limiter, hot",
              "redissonRateHot",
              "floorOneRoundTrip",
              Case.NONE),
          new Case(
              REDIS,
              "Redisson rate limiter, 1,000/s",
              "redissonRateTight",
              "floorOneRoundTrip",
              Case.NONE),
          new Case(REDIS, "Bucket4j, hot", "bucket4jRateHot", "floorOneRoundTrip", Case.NONE),
          new Case(REDIS, "Bucket4j, 1,000/s", "bucket4jRateTight", "floorOneRoundTrip", Case.NONE),
          new Case(JPA, "bulkhead of 8, acquire + release", "bulkhead", "floorSharedRow", 1.0),
          // the store locks the lock name's row for every key: all threads meet on one row
          new Case(JPA, "write lock, 64 keys", "writeLock", "floorSharedRow", 0.8),
          new Case(
              JPA, "write lock, 64 keys, own-row floor", "writeLock", "floorOwnRow", Case.NONE),
          new Case(JPA, "read lock, 95 % reads", "readMostly", "floorSharedRow", 1.0),
          new Case(JPA, "rate limit, hot key, all granted", "rateHot", "floorSharedRow", 4),
          new Case(JPA, "rate limit 1,000/s, most rejected", "rateTight", "floorSharedRow", 5),
          new Case(
              JPA,
              "one thread: bulkhead",
              "bulkheadOneThread",
              "floorSharedRowOneThread",
              Case.NO_SLOWER),
          new Case(
              JPA,
              "one thread: write lock",
              "writeLockOneThread",
              "floorSharedRowOneThread",
              Case.NO_SLOWER),
          new Case(
              JPA,
              "one thread: rate limit",
              "rateHotOneThread",
              "floorSharedRowOneThread",
              Case.NO_SLOWER),
          new Case(JPA, "Bucket4j, hot", "bucket4jRateHot", "floorSharedRow", Case.NONE),
          new Case(JPA, "Bucket4j, 1,000/s", "bucket4jRateTight", "floorSharedRow", Case.NONE));

  private static final Pattern FILE = Pattern.compile("(.+)-(\\d+)\\.csv");

  private BeforeAfter() {}

  public static void main(String[] args) throws IOException {
    if (args.length == 0) {
      System.err.println("usage: BeforeAfter <directory> [first-label second-label]");
      System.exit(2);
    }
    Path directory = Path.of(args[0]);
    List<String> labels = args.length >= 3 ? List.of(args[1], args[2]) : List.of("before", "after");
    // label -> round -> "Class.benchmark" -> ops/s
    Map<String, Map<Integer, Map<String, Double>>> runs = new HashMap<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.sorted().toList()) {
        Matcher name = FILE.matcher(file.getFileName().toString());
        if (name.matches()) {
          runs.computeIfAbsent(name.group(1), l -> new TreeMap<>())
              .put(Integer.parseInt(name.group(2)), scores(file));
        }
      }
    }
    printRounds(runs, labels);
    printMedians(runs, labels);
  }

  /** Score (ops/s) by {@code SimpleClassName.benchmark} from one JMH CSV file. */
  static Map<String, Double> scores(Path csv) throws IOException {
    Map<String, Double> scores = new HashMap<>();
    List<String> lines = Files.readAllLines(csv);
    for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
      String[] cells = line.split(",");
      if (cells.length < 5) {
        continue;
      }
      String benchmark = cells[0].replace("\"", "");
      String[] parts = benchmark.split("\\.");
      String key = parts[parts.length - 2] + "." + parts[parts.length - 1];
      scores.put(key, Double.parseDouble(cells[4].replace("\"", "")));
    }
    return scores;
  }

  static double ratio(Map<String, Double> run, Case c) {
    Double score = run.get(c.store + "." + c.benchmark);
    Double floor = run.get(c.store + "." + c.floor);
    return score == null || floor == null ? Double.NaN : score / floor;
  }

  static double score(Map<String, Double> run, Case c) {
    return run.getOrDefault(c.store + "." + c.benchmark, Double.NaN);
  }

  private static void printRounds(
      Map<String, Map<Integer, Map<String, Double>>> runs, List<String> labels) {
    System.out.println("ratio to the floor of the same run, every run (ops/s in brackets):");
    for (String label : labels) {
      Map<Integer, Map<String, Double>> rounds = runs.getOrDefault(label, Map.of());
      for (Map.Entry<Integer, Map<String, Double>> round : rounds.entrySet()) {
        System.out.printf(Locale.ROOT, "%n%s, round %d%n", label, round.getKey());
        for (Case c : CASES) {
          double ratio = ratio(round.getValue(), c);
          if (!Double.isNaN(ratio)) {
            System.out.printf(
                Locale.ROOT,
                "  %-5s %-36s %6.2f  (%.0f / %.0f)%n",
                c.store.startsWith("Redis") ? "Redis" : "JPA",
                c.what,
                ratio,
                score(round.getValue(), c),
                round.getValue().get(c.store + "." + c.floor));
          }
        }
      }
    }
  }

  private static void printMedians(
      Map<String, Map<Integer, Map<String, Double>>> runs, List<String> labels) {
    String first = labels.get(0);
    String second = labels.get(1);
    System.out.printf(
        Locale.ROOT,
        "%nmedians over the rounds (%s: %d, %s: %d)%n",
        first,
        runs.getOrDefault(first, Map.of()).size(),
        second,
        runs.getOrDefault(second, Map.of()).size());
    System.out.printf(
        Locale.ROOT,
        "| store | case | floor | %s | %s | %s / %s | %s ops/s | %s ops/s | target | met |%n",
        first,
        second,
        second,
        first,
        first,
        second);
    System.out.println("|---|---|---|---|---|---|---|---|---|---|");
    for (Case c : CASES) {
      double before = medianRatio(runs.get(first), c);
      double after = medianRatio(runs.get(second), c);
      if (Double.isNaN(before) && Double.isNaN(after)) {
        continue;
      }
      double beforeOps = medianScore(runs.get(first), c);
      double afterOps = medianScore(runs.get(second), c);
      System.out.printf(
          Locale.ROOT,
          "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
          c.store.startsWith("Redis") ? "Redis" : "JPA",
          c.what,
          c.floor,
          format(before, "%.2f"),
          format(after, "%.2f"),
          format(after / before, "%.2f"),
          format(beforeOps, "%.0f"),
          format(afterOps, "%.0f"),
          c.targetText(),
          met(c, before, after));
    }
  }

  private static String met(Case c, double before, double after) {
    if (Double.isNaN(c.target)) {
      return "";
    }
    double measured = Double.isNaN(after) ? before : after;
    if (Double.isNaN(measured)) {
      return "?";
    }
    if (c.target == Case.NO_SLOWER) {
      if (Double.isNaN(after) || Double.isNaN(before)) {
        return "?";
      }
      return after >= before ? "yes" : after >= 0.95 * before ? "within 5 %" : "no";
    }
    return measured >= c.target ? "yes" : "no";
  }

  private static String format(double value, String format) {
    return Double.isNaN(value) || Double.isInfinite(value)
        ? "–"
        : String.format(Locale.ROOT, format, value);
  }

  static double medianRatio(Map<Integer, Map<String, Double>> rounds, Case c) {
    if (rounds == null) {
      return Double.NaN;
    }
    return median(rounds.values().stream().mapToDouble(run -> ratio(run, c)).toArray());
  }

  static double medianScore(Map<Integer, Map<String, Double>> rounds, Case c) {
    if (rounds == null) {
      return Double.NaN;
    }
    return median(rounds.values().stream().mapToDouble(run -> score(run, c)).toArray());
  }

  /** The median of the values that are numbers; NaN when none is. */
  static double median(double[] values) {
    double[] numbers = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
    if (numbers.length == 0) {
      return Double.NaN;
    }
    int middle = numbers.length / 2;
    return numbers.length % 2 == 1 ? numbers[middle] : (numbers[middle - 1] + numbers[middle]) / 2;
  }
}
