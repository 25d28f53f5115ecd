package dev.bulwark.quarkus.config;

import dev.bulwark.core.config.LimitKind;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The members of the named limit keys, checked when the application starts: {@link NamedLimitKeys}
 * accepts every key under a kind's prefix (a name may hold dots), so a misspelt member ({@code
 * bulwark.bulkhead.orders.vlaue}) would otherwise be read by nobody and reported by nobody.
 */
@ApplicationScoped
public class NamedKeyCheck {

  /** What a rate limit's shorthand looks like, before the limit itself checks the parts. */
  private static final Pattern SHORTHAND = Pattern.compile("\\s*\\d+\\s*/\\s*\\S+\\s*");

  void onStart(@Observes StartupEvent event, NamedLimitKeys keys) {
    List<String> problems = new ArrayList<>();
    check(LimitKind.BULKHEAD, keys.bulkheadKeys(), problems);
    check(LimitKind.RATE_LIMIT, keys.rateLimitKeys(), problems);
    check(LimitKind.LOCK, keys.lockKeys(), problems);
    if (!problems.isEmpty()) {
      throw new ConfigurationException(String.join(System.lineSeparator(), problems));
    }
  }

  /** Problems of the keys of one kind, by what follows {@code bulwark.<segment>.}. */
  static void check(LimitKind kind, Map<String, String> keys, List<String> problems) {
    for (String suffix : keys.keySet()) {
      int dot = suffix.lastIndexOf('.');
      String member = dot < 0 ? "" : suffix.substring(dot + 1);
      if (dot > 0 && kind.namedMembers().contains(member)) {
        continue;
      }
      if (kind == LimitKind.RATE_LIMIT && SHORTHAND.matcher(keys.get(suffix)).matches()) {
        continue; // bulwark.rate-limit.<name>=<permits>/<window>, checked with the limit
      }
      problems.add(
          "Invalid config key 'bulwark."
              + kind.configSegment()
              + "."
              + suffix
              + "': a "
              + kind.configSegment()
              + " key is bulwark."
              + kind.configSegment()
              + ".<name>.<member>, with <member> one of "
              + String.join(", ", kind.namedMembers())
              + (kind == LimitKind.RATE_LIMIT
                  ? ", or bulwark.rate-limit.<name>=<permits>/<window>"
                  : ""));
    }
  }
}
