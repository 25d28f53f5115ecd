package dev.bulwark.core.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Bulwark's {@code bulwark.*} keys by name: a key nobody reads ({@code bulwark.stroe}, a limit's
 * misspelt member {@code bulwark.bulkhead.orders.vlaue}, {@code quarkus.bulwark.store}) is reported
 * instead of ignored, each with the key to use where one is close. The values are checked where
 * they are read.
 */
public final class ConfigKeys {

  public static final String PREFIX = "bulwark.";

  /**
   * What a Quarkus user puts before an extension's keys by habit; Bulwark reads one spelling, the
   * one every runtime shares, and refuses this one rather than ignore it.
   */
  private static final String QUARKUS_PREFIX = "quarkus.";

  /**
   * Every fixed key of the engine and the integrations (the named limits' keys are checked by their
   * members; a store's keys, {@code bulwark.<store id>.*}, are the store's own).
   */
  private static final Set<String> FIXED =
      Set.of(
          "bulwark.store",
          "bulwark.enabled",
          "bulwark.failure-policy",
          "bulwark.batch.max-size",
          "bulwark.release",
          "bulwark.http.problem-responses",
          "bulwark.fault-tolerance.bulkhead.distributed",
          "bulwark.fault-tolerance.rate-limit.distributed");

  /** The segments of the stores of this project, whose keys a runtime may know. */
  private static final Set<String> STORE_SEGMENTS = Set.of("redis", "jpa");

  /** What a rate limit's shorthand looks like, before the limit itself checks the parts. */
  private static final Pattern SHORTHAND = Pattern.compile("\\s*\\d+\\s*/\\s*\\S+\\s*");

  private ConfigKeys() {}

  /**
   * What is wrong with the names of the {@code bulwark.*} keys among {@code names}, one message per
   * key, in the order of the names.
   *
   * @param config the values, for the store chosen (a third-party store's own keys, {@code
   *     bulwark.<its id>.*}, are its own to check) and for a rate limit's shorthand
   * @param storeKeys every key of the stores that the runtime knows ({@code bulwark.redis.url} …):
   *     keys under a store's segment are checked against these when some of that segment are given,
   *     and left to the store otherwise
   */
  public static List<String> problems(
      Iterable<String> names, ConfigLookup config, Set<String> storeKeys) {
    Set<String> sorted = new TreeSet<>();
    names.forEach(sorted::add);
    String store =
        config.get("bulwark.store").map(s -> s.trim().toLowerCase(Locale.ROOT)).orElse("");
    List<String> problems = new ArrayList<>();
    for (String key : sorted) {
      if (key.startsWith(QUARKUS_PREFIX + PREFIX)) {
        String meant = key.substring(QUARKUS_PREFIX.length());
        problems.add(
            "Invalid config key '"
                + key
                + "': Bulwark's keys have no 'quarkus.' prefix, on Quarkus too: use '"
                + meant
                + "'");
        continue;
      }
      if (!key.startsWith(PREFIX) || FIXED.contains(key) || storeKeys.contains(key)) {
        continue;
      }
      String rest = key.substring(PREFIX.length());
      Optional<LimitKind> kind = limitKind(rest);
      if (kind.isPresent()) {
        String suffix = rest.substring(kind.get().configSegment().length() + 1);
        namedKeyProblem(kind.get(), key, suffix, config).ifPresent(problems::add);
        continue;
      }
      int dot = rest.indexOf('.');
      String segment = dot < 0 ? "" : rest.substring(0, dot);
      boolean storeSegment =
          !segment.isEmpty() && (STORE_SEGMENTS.contains(segment) || segment.equals(store));
      if (storeSegment && storeKeys.stream().noneMatch(k -> k.startsWith(PREFIX + segment + "."))) {
        continue; // the store's own keys, which this runtime does not know: the store checks them
      }
      problems.add(
          "Invalid config key '"
              + key
              + "': Bulwark has no such key"
              + closest(key, storeKeys).map(k -> "; did you mean '" + k + "'?").orElse("")
              + " (every key: docs/configuration.md)");
    }
    return problems;
  }

  private static Optional<LimitKind> limitKind(String rest) {
    for (LimitKind kind : LimitKind.values()) {
      if (rest.startsWith(kind.configSegment() + ".")) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }

  /**
   * A named limit's key is {@code <name>.<member>}; a name may hold dots ({@code
   * com.acme.Billing#charge}), so the member is what follows the last one.
   */
  private static Optional<String> namedKeyProblem(
      LimitKind kind, String key, String suffix, ConfigLookup config) {
    int dot = suffix.lastIndexOf('.');
    String member = dot < 0 ? "" : suffix.substring(dot + 1);
    if (dot > 0 && kind.namedMembers().contains(member)) {
      return Optional.empty();
    }
    if (kind == LimitKind.RATE_LIMIT
        && config.get(key).filter(v -> SHORTHAND.matcher(v).matches()).isPresent()) {
      return Optional
          .empty(); // bulwark.rate-limit.<name>=<permits>/<window>, checked with the limit
    }
    String segment = kind.configSegment();
    Optional<String> meant =
        dot > 0
            ? kind.namedMembers().stream()
                .filter(m -> distance(m, member) <= 2)
                .min(Comparator.comparingInt(m -> distance(m, member)))
                .map(m -> PREFIX + segment + "." + suffix.substring(0, dot) + "." + m)
            : Optional.empty();
    return Optional.of(
        "Invalid config key '"
            + key
            + "': a "
            + segment
            + " key is bulwark."
            + segment
            + ".<name>.<member>, with <member> one of "
            + String.join(", ", kind.namedMembers())
            + (kind == LimitKind.RATE_LIMIT
                ? ", or bulwark.rate-limit.<name>=<permits>/<window>"
                : "")
            + meant.map(k -> "; did you mean '" + k + "'?").orElse(""));
  }

  /** The known key within two edits of {@code key}, if one is. */
  private static Optional<String> closest(String key, Set<String> storeKeys) {
    return Stream.concat(FIXED.stream(), storeKeys.stream())
        .filter(k -> distance(k, key) <= 2)
        .min(Comparator.comparingInt((String k) -> distance(k, key)).thenComparing(k -> k));
  }

  /** Edits (insert, delete, replace, swap of neighbours) from one text to the other. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
