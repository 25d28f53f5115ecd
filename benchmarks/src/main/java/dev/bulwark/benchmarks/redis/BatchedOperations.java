package dev.bulwark.benchmarks.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operations a permit batch ({@code permit_batch}) carries, read from its MONITOR line: a batch
 * is one script call, so counting script calls by name no longer counts polls, acquires or releases
 * once the store batches them. The operation kinds and the arguments' layout are the script's own
 * ({@code 'A'}/{@code 'a'} acquire, {@code 'P'} poll, {@code 'C'}/{@code 'G'} cancel, {@code 'R'}
 * release; five fixed arguments, then a kind and a request id per operation).
 */
final class BatchedOperations {

  /** One argument of a MONITOR line: Redis quotes each and escapes quotes and backslashes. */
  private static final Pattern QUOTED = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** The permit batch's arguments before its first operation. */
  private static final int FIXED_ARGUMENTS = 5;

  private BatchedOperations() {}

  /** How many operations of {@code kinds} (e.g. {@code "Aa"}) a permit batch line carries. */
  static int count(MonitorTap.Command permitBatch, String kinds) {
    List<String> words = words(permitBatch.line());
    // "evalsha", its SHA-1, the number of keys, the keys, then ARGV
    int argv = 3 + Integer.parseInt(words.get(2));
    int count = 0;
    for (int i = argv + FIXED_ARGUMENTS; i < words.size(); i += 2) {
      String kind = words.get(i);
      if (kind.length() == 1 && kinds.indexOf(kind.charAt(0)) >= 0) {
        count++;
      }
    }
    return count;
  }

  private static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    Matcher quoted = QUOTED.matcher(line);
    while (quoted.find()) {
      words.add(quoted.group(1));
    }
    return words;
  }
}
