package dev.bulwark.jpa.setup;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JDBC URL as messages may show it: a password inside it ({@code ?password=…}, {@code
 * ;password=…}, {@code //user:password@host}) becomes {@code ***}, as {@code bulwark.jpa.password}
 * never shows.
 */
final class RedactedUrl {

  /** A password parameter, in the query ({@code ?&}) or in properties ({@code ;}) style. */
  private static final Pattern PARAMETER = Pattern.compile("(?i)([?&;:](?:password|pwd)=)([^&;]*)");

  /** Credentials before the host: {@code //user:password@}. */
  private static final Pattern USER_INFO = Pattern.compile("(//[^/:@?;]*:)([^/@?;]*)(@)");

  private RedactedUrl() {}

  static String of(String url) {
    if (url == null) {
      return null;
    }
    String text = PARAMETER.matcher(url).replaceAll("$1***");
    return USER_INFO.matcher(text).replaceAll("$1***$3");
  }

  /** The passwords written in {@code url}, for scrubbing them from a driver's messages. */
  static List<String> passwords(String url) {
    List<String> found = new ArrayList<>();
    if (url == null) {
      return found;
    }
    for (Pattern pattern : List.of(PARAMETER, USER_INFO)) {
      Matcher matcher = pattern.matcher(url);
      while (matcher.find()) {
        if (!matcher.group(2).isEmpty()) {
          found.add(matcher.group(2));
        }
      }
    }
    return found;
  }
}
