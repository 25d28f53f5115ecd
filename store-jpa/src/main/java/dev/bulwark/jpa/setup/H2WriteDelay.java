package dev.bulwark.jpa.setup;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * H2 keeps what a transaction committed in memory for up to {@code WRITE_DELAY} (500 ms by default)
 * before it writes it to the file: a JVM killed meanwhile (the one serving an {@code AUTO_SERVER}
 * file to the others) takes grants with it that other JVMs already saw, and the next grant may
 * repeat a fencing token. The store's own pool on an H2 database that is not in memory therefore
 * runs with {@code WRITE_DELAY=0}, and refuses a URL that asks for a delay.
 */
final class H2WriteDelay {

  private static final Pattern SETTING = Pattern.compile("(?i);\\s*WRITE_DELAY\\s*=\\s*([^;]*)");

  private H2WriteDelay() {}

  /** {@code url} with {@code WRITE_DELAY=0} on an H2 database kept in a file (or a server). */
  static String durable(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    if (!lower.startsWith("jdbc:h2:") || lower.startsWith("jdbc:h2:mem:")) {
      return url;
    }
    Matcher setting = SETTING.matcher(url);
    if (setting.find()) {
      if (!setting.group(1).trim().equals("0")) {
        throw new InvalidJpaSettingException(
            "bulwark.jpa.url="
                + RedactedUrl.of(url)
                + ": WRITE_DELAY="
                + setting.group(1).trim()
                + " lets H2 lose grants it committed when the JVM that writes the file is killed"
                + " (another JVM may then be granted a lock someone holds, with the same fencing"
                + " token); leave WRITE_DELAY out, and the store sets it to 0");
      }
      return url;
    }
    return url + ";WRITE_DELAY=0";
  }
}
