package dev.bulwark.faulttolerance;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.Origin;
import java.util.Locale;
import java.util.Optional;

/**
 * The MicroProfile FT config of one annotation where it is declared, read as MicroProfile FT reads
 * it: {@code <class>/<method>/<Annotation>/<member>}, else {@code <class>/<Annotation>/<member>},
 * else the global key. Values are the raw strings; each reader parses and names the key it used.
 */
final class FtStyleKeys {

  /** A value found in config, with its key. */
  record Found(String key, String raw) {}

  /** MicroProfile FT's switch for every policy but {@code @Fallback}. */
  static final String NON_FALLBACK_ENABLED = "MP_Fault_Tolerance_NonFallback_Enabled";

  private final ConfigLookup config;
  private final String annotation;
  private final Origin origin;

  FtStyleKeys(ConfigLookup config, String annotation, Origin origin) {
    this.config = config;
    this.annotation = annotation;
    this.origin = origin;
  }

  /** The member's override: method key, else class key, else {@code <Annotation>/<member>}. */
  Optional<Found> find(String member) {
    return declared(member).or(() -> lookup(annotation + "/" + member));
  }

  /** The member's override at the method or the class only, else {@code globalKey}. */
  Optional<Found> find(String member, String globalKey) {
    return declared(member).or(() -> lookup(globalKey));
  }

  /**
   * Whether MicroProfile FT applies the annotation at all: its {@code enabled} keys, else {@code
   * MP_Fault_Tolerance_NonFallback_Enabled}, else true.
   */
  boolean enabled() {
    return find("enabled").or(() -> lookup(NON_FALLBACK_ENABLED)).map(this::bool).orElse(true);
  }

  boolean bool(Found found) {
    String raw = found.raw().toLowerCase(Locale.ROOT);
    if (!raw.equals("true") && !raw.equals("false")) {
      throw invalid(found, "is not true or false");
    }
    return Boolean.parseBoolean(raw);
  }

  InvalidDefinitionException invalid(Found found, String problem) {
    return new InvalidDefinitionException(
        "Invalid @"
            + annotation
            + " on "
            + origin.describe()
            + ": config key '"
            + found.key()
            + "' = '"
            + found.raw()
            + "' "
            + problem);
  }

  private Optional<Found> declared(String member) {
    return lookup(origin.className() + "/" + origin.methodName() + "/" + annotation + "/" + member)
        .or(() -> lookup(origin.className() + "/" + annotation + "/" + member));
  }

  private Optional<Found> lookup(String key) {
    return config.get(key).map(String::trim).filter(v -> !v.isEmpty()).map(v -> new Found(key, v));
  }
}
