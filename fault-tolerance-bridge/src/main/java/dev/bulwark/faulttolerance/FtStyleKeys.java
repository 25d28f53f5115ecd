package dev.bulwark.faulttolerance;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.SettingReader;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The config of one MicroProfile FT annotation on one method, read with the keys and in the order
 * the FT implementation reads it, so a mapped limit enforces across the cluster the value FT
 * enforces in each JVM:
 *
 * <ul>
 *   <li>a member: {@code <key>/<Annotation>/<member>}, where {@code <key>} is {@code
 *       <class>/<method>} for an annotation on the method and {@code <class>} for one on the class
 *       ({@code <class>} being the class that declares the method), else {@code
 *       <Annotation>/<member>}; SmallRye FT's own spelling ({@code
 *       smallrye.faulttolerance."<key>".bulkhead.value}, {@code
 *       smallrye.faulttolerance.global.bulkhead.value}) comes first at each level, and on Quarkus
 *       the {@code quarkus.fault-tolerance.*} keys reach it through Quarkus' relocation;
 *   <li>{@code enabled}: the method key, the class key and the global key of the annotation,
 *       whatever the annotation's level, else {@code smallrye.faulttolerance.enabled}, else {@code
 *       MP_Fault_Tolerance_NonFallback_Enabled}, else true.
 * </ul>
 *
 * <p>Bulwark's own {@code distributed} switch is read beside them: the method key, the class key,
 * each under the class that declares the method and under the bean class (a bean that inherits a
 * method is chosen by its own name as well), then Bulwark's global key.
 */
final class FtStyleKeys {

  /** A value found in config, with its key. */
  record Found(String key, String raw) {}

  /** MicroProfile FT's switch for every policy but {@code @Fallback}. */
  static final String NON_FALLBACK_ENABLED = "MP_Fault_Tolerance_NonFallback_Enabled";

  /** SmallRye FT's switch for all of it (Quarkus: {@code quarkus.fault-tolerance.enabled}). */
  static final String SMALLRYE_ENABLED = "smallrye.faulttolerance.enabled";

  private static final String SMALLRYE = "smallrye.faulttolerance.";

  /** Quarkus' spelling of SmallRye FT's keys. */
  private static final String QUARKUS = "quarkus.fault-tolerance.";

  /** Bulwark's own member in FT's key form: {@code <class>/<method>/Bulkhead/distributed}. */
  private static final String DISTRIBUTED = "distributed";

  private final ConfigLookup config;
  private final String annotation;
  private final String methodKey;
  private final String classKey;
  private final String beanMethodKey;
  private final String beanClassKey;
  private final String memberKey;
  private final String described;

  /**
   * @param annotation the annotation's simple name, {@code Bulkhead} or {@code RateLimit}
   * @param beanClass the bean class, which may inherit the method
   * @param method the guarded method, as declared (the class that declares it names the keys)
   * @param onMethod whether the annotation sits on the method rather than on the class
   * @param described the method as error messages name it
   */
  FtStyleKeys(
      ConfigLookup config,
      String annotation,
      Class<?> beanClass,
      Method method,
      boolean onMethod,
      String described) {
    this.config = config;
    this.annotation = annotation;
    this.classKey = method.getDeclaringClass().getName();
    this.methodKey = classKey + "/" + method.getName();
    this.beanClassKey = beanClass.getName();
    this.beanMethodKey = beanClassKey + "/" + method.getName();
    this.memberKey = onMethod ? methodKey : classKey;
    this.described = described;
  }

  /** The member's value, at the annotation's level, else global; empty for the annotation's. */
  Optional<Found> member(String member) {
    return first(
        smallRye(quoted(memberKey), member),
        memberKey + "/" + annotation + "/" + member,
        smallRye("global", member),
        annotation + "/" + member);
  }

  /** Whether the FT implementation applies the annotation to this method at all. */
  boolean enabled() {
    Optional<Found> own =
        first(
            smallRye(quoted(methodKey), "enabled"),
            methodKey + "/" + annotation + "/enabled",
            smallRye(quoted(classKey), "enabled"),
            classKey + "/" + annotation + "/enabled",
            smallRye("global", "enabled"),
            annotation + "/enabled");
    if (own.isPresent()) {
      // SmallRye reads these with Boolean.parseBoolean: anything but "true" disables
      return Boolean.parseBoolean(own.get().raw());
    }
    return first(SMALLRYE_ENABLED, NON_FALLBACK_ENABLED)
        .map(found -> configBoolean(found.raw()))
        .orElse(true);
  }

  /**
   * Bulwark's {@code distributed} switch: the method keys, the class keys (the declaring class's
   * first, then the bean class's), then {@code globalKey}.
   */
  Optional<Found> distributed(String globalKey) {
    String member = "/" + annotation + "/" + DISTRIBUTED;
    return first(
        methodKey + member,
        beanMethodKey + member,
        classKey + member,
        beanClassKey + member,
        globalKey);
  }

  /** The key a user sets to keep this annotation per JVM, for messages. */
  String perJvmKey() {
    return methodKey + "/" + annotation + "/" + DISTRIBUTED + "=false";
  }

  /**
   * One of Bulwark's switches: a boolean in any form MicroProfile Config accepts, and nothing else,
   * so a typo fails the deployment instead of reading as false.
   */
  boolean bool(Found found) {
    try {
      return SettingReader.parseBoolean(found.raw());
    } catch (IllegalArgumentException e) {
      throw invalid(found, "is not true or false");
    }
  }

  /** A member that counts something: a whole number above 0. */
  int positiveInt(Found found) {
    return (int) whole(found, 1, Integer.MAX_VALUE);
  }

  /** A member that is a whole number from {@code min} to {@code max}. */
  long whole(Found found, long min, long max) {
    try {
      return SettingReader.parseLong(found.raw(), min, max);
    } catch (IllegalArgumentException e) {
      String raw = found.raw().trim();
      if (raw.matches("[0-9]{1,18}") && Long.parseLong(raw) < min) {
        throw invalid(found, min == 1 ? "must be greater than 0" : "must be at least " + min);
      }
      throw invalid(found, "is not a whole number");
    }
  }

  /** A boolean as MicroProfile Config converts one: true, 1, yes, y or on, in any case. */
  static boolean configBoolean(String raw) {
    return List.of("true", "1", "yes", "y", "on").contains(raw.trim().toLowerCase(Locale.ROOT));
  }

  InvalidDefinitionException invalid(Found found, String problem) {
    return new InvalidDefinitionException(
        "Invalid @"
            + annotation
            + " on "
            + described
            + ": config key '"
            + found.key()
            + "' = '"
            + found.raw()
            + "' "
            + problem);
  }

  /**
   * {@code smallrye.faulttolerance.<scope>.<annotation>.<member>}, kebab-cased as SmallRye does.
   */
  private String smallRye(String scope, String member) {
    return SMALLRYE + scope + "." + kebab(annotation) + "." + kebab(member);
  }

  private static String quoted(String key) {
    return "\"" + key + "\"";
  }

  /** {@code RateLimit} → {@code rate-limit}, {@code windowUnit} → {@code window-unit}. */
  static String kebab(String name) {
    StringBuilder kebab = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0) {
          kebab.append('-');
        }
        kebab.append(Character.toLowerCase(c));
      } else {
        kebab.append(c);
      }
    }
    return kebab.toString();
  }

  private Optional<Found> first(String... keys) {
    return Stream.of(keys).map(this::lookup).flatMap(Optional::stream).findFirst();
  }

  private Optional<Found> lookup(String key) {
    return config
        .get(key)
        .map(String::trim)
        .filter(v -> !v.isEmpty())
        .map(v -> new Found(asSet(key, v), v));
  }

  /**
   * The key as the user spelt it: on Quarkus a {@code quarkus.fault-tolerance.*} key reaches
   * SmallRye FT's {@code smallrye.faulttolerance.*} by relocation, so the value found under
   * SmallRye's name was set under Quarkus'.
   */
  private String asSet(String key, String value) {
    if (!key.startsWith(SMALLRYE)) {
      return key;
    }
    String quarkus = QUARKUS + key.substring(SMALLRYE.length());
    return config.get(quarkus).map(String::trim).filter(value::equals).isPresent() ? quarkus : key;
  }

  /** The FT-style key that sets {@code member} at the annotation's level, for messages. */
  String memberKey(String member) {
    return memberKey + "/" + annotation + "/" + member;
  }
}
