package dev.bulwark.core.config;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the config value that overrides one member of one limit, in the documented precedence:
 * FT-style method key, FT-style class key, named key, FT-style global key; else the annotation.
 */
final class MemberSource {

  /** A value found in config, with the key it came from. */
  record Found(String key, String raw) {}

  /**
   * MicroProfile Fault Tolerance's switch for every policy but {@code @Fallback}: Bulwark's
   * bindings are such policies, so it is the default of their {@code enabled}, below every {@code
   * <annotation>/enabled} key as in MicroProfile FT.
   */
  static final String FT_NON_FALLBACK_ENABLED = "MP_Fault_Tolerance_NonFallback_Enabled";

  private static final Pattern SHORTHAND = Pattern.compile("\\s*(\\d+)\\s*/\\s*(\\S+)\\s*");

  private final ConfigLookup config;
  private final LimitKind kind;
  private final Origin origin;
  private final String name;

  MemberSource(ConfigLookup config, LimitKind kind, Origin origin, String name) {
    this.config = config;
    this.kind = kind;
    this.origin = origin;
    this.name = name;
  }

  /**
   * @param ftMember the member as FT-style keys spell it ({@code waitingTime})
   * @param namedMember the member as named keys spell it ({@code waiting-time}); null when named
   *     keys do not carry it (units are part of a named key's duration)
   */
  Optional<Found> find(String ftMember, String namedMember) {
    String annotation = kind.annotationName();
    if (origin.isMethod()) {
      Optional<Found> found =
          lookup(origin.className() + "/" + origin.methodName() + "/" + annotation + "/" + ftMember)
              .or(() -> lookup(origin.className() + "/" + annotation + "/" + ftMember));
      if (found.isPresent()) {
        return found;
      }
    }
    if (namedMember != null) {
      Optional<Found> named =
          lookup("bulwark." + kind.configSegment() + "." + name + "." + namedMember)
              .or(() -> rateShorthand(namedMember));
      if (named.isPresent()) {
        return named;
      }
    }
    return lookup(annotation + "/" + ftMember);
  }

  /** Whether the limit is enabled: its {@code enabled} keys, else MicroProfile FT's switch. */
  Optional<Found> findEnabled() {
    return find("enabled", "enabled").or(() -> lookup(FT_NON_FALLBACK_ENABLED));
  }

  /**
   * {@code bulwark.rate-limit.<name>=100/1m}: a rate limit's value and window in one key, below the
   * named member keys in precedence.
   */
  private Optional<Found> rateShorthand(String namedMember) {
    if (kind != LimitKind.RATE_LIMIT
        || !(namedMember.equals("value") || namedMember.equals("window"))) {
      return Optional.empty();
    }
    String key = "bulwark." + kind.configSegment() + "." + name;
    return lookup(key)
        .map(
            found -> {
              Matcher parts = SHORTHAND.matcher(found.raw());
              if (!parts.matches()) {
                throw new InvalidDefinitionException(
                    "Invalid @"
                        + kind.annotationName()
                        + " '"
                        + name
                        + "' on "
                        + origin.describe()
                        + ": config key '"
                        + key
                        + "' = '"
                        + found.raw()
                        + "' must be <permits>/<window>, e.g. 100/1m or 100/minute");
              }
              return new Found(
                  key, namedMember.equals("value") ? parts.group(1) : windowOfOne(parts.group(2)));
            });
  }

  /** {@code 100/minute} reads as "per minute": a unit word stands for one of that unit. */
  private static String windowOfOne(String window) {
    return switch (window.toLowerCase(Locale.ROOT)) {
      case "second", "sec" -> "1s";
      case "minute", "min" -> "1m";
      case "hour" -> "1h";
      case "day" -> "1d";
      default -> window;
    };
  }

  private Optional<Found> lookup(String key) {
    return config.get(key).map(String::trim).filter(v -> !v.isEmpty()).map(v -> new Found(key, v));
  }
}
