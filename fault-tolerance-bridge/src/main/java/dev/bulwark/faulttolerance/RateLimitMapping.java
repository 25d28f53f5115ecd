package dev.bulwark.faulttolerance;

import dev.bulwark.RateLimitType;
import dev.bulwark.cdi.MappedGuarding;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.core.config.Origin;
import io.smallrye.faulttolerance.api.RateLimit;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Decides whether one SmallRye FT {@code @RateLimit} is cluster-wide and, if so, declares the
 * Bulwark rate limit that enforces it with its effective value, window and type (SmallRye's {@code
 * FIXED}, {@code ROLLING} and {@code SMOOTH} have Bulwark counterparts of the same name). A minimum
 * spacing between calls has none, so it fails the deployment instead of being dropped. Loaded only
 * when SmallRye FT's API is on the class path.
 */
final class RateLimitMapping {

  static final String ANNOTATION = "RateLimit";
  static final String DISTRIBUTED = "bulwark.fault-tolerance.rate-limit.distributed";

  private RateLimitMapping() {}

  /**
   * The declaration, or empty when the rate limit stays per JVM.
   *
   * @throws InvalidDefinitionException naming the method and the key or member that cannot be
   *     mapped
   */
  static Optional<Mapped> declaration(
      ConfigLookup config,
      Class<?> beanClass,
      Method method,
      boolean onMethod,
      Annotation annotation) {
    RateLimit rateLimit = (RateLimit) annotation;
    Origin origin = Origin.of(beanClass, method);
    FtStyleKeys keys =
        new FtStyleKeys(config, ANNOTATION, beanClass, method, onMethod, origin.describe());
    Optional<FtStyleKeys.Found> chosen = keys.distributed(DISTRIBUTED);
    if (!chosen.map(keys::bool).orElse(false) || !keys.enabled()) {
      return Optional.empty();
    }
    long minSpacing =
        keys.member("minSpacing")
            .map(found -> keys.whole(found, 0, Long.MAX_VALUE))
            .orElse(rateLimit.minSpacing());
    if (minSpacing > 0) {
      throw new InvalidDefinitionException(
          "Cannot make @RateLimit on "
              + origin.describe()
              + " cluster-wide: minSpacing = "
              + minSpacing
              + " (from "
              + keys.member("minSpacing").map(FtStyleKeys.Found::key).orElse("the annotation")
              + ") has no cluster-wide equivalent in Bulwark. Set it to 0, or keep this rate"
              + " limit per JVM with "
              + keys.perJvmKey());
    }
    Map<String, Object> members = new LinkedHashMap<>();
    List<String> used = new ArrayList<>(List.of(chosen.get().key()));
    members.put("name", MappedNames.of(beanClass, method));
    members.put(
        "value",
        keys.member("value")
            .map(found -> noted(used, found, keys.positiveInt(found)))
            .orElse(rateLimit.value()));
    members.put(
        "window",
        keys.member("window")
            .map(found -> noted(used, found, keys.whole(found, 1, Long.MAX_VALUE)))
            .orElse(rateLimit.window()));
    members.put(
        "windowUnit",
        keys.member("windowUnit")
            .map(found -> noted(used, found, unit(keys, found)))
            .orElse(rateLimit.windowUnit()));
    members.put(
        "type",
        keys.member("type")
            .map(found -> noted(used, found, type(keys, found)))
            .orElse(RateLimitType.valueOf(rateLimit.type().name())));
    members.put("waitingTime", 0L);
    return Optional.of(
        new Mapped(
            LimitDeclaration.settled(
                LimitKind.RATE_LIMIT,
                origin,
                beanClass,
                method,
                members,
                "@" + ANNOTATION,
                sources(keys)),
            new MappedGuarding(
                StageReading.asResult(config, beanClass, method), ClusterRateLimitException::of),
            used,
            Mapped.ignoredKeys(
                config,
                LimitKind.RATE_LIMIT,
                (String) members.get("name"),
                keys,
                List.of("value", "window"))));
  }

  private static <T> T noted(List<String> used, FtStyleKeys.Found found, T value) {
    used.add(found.key());
    return value;
  }

  /** Where each member FT's keys set came from; a window's unit sets the window too. */
  private static Map<String, String> sources(FtStyleKeys keys) {
    Map<String, String> sources = new LinkedHashMap<>();
    for (String member : List.of("value", "window", "windowUnit", "type")) {
      keys.member(member).ifPresent(found -> sources.put(member, found.key()));
    }
    if (!sources.containsKey("window") && sources.containsKey("windowUnit")) {
      sources.put("window", sources.get("windowUnit"));
    }
    return sources;
  }

  private static ChronoUnit unit(FtStyleKeys keys, FtStyleKeys.Found found) {
    try {
      return ChronoUnit.valueOf(found.raw().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw keys.invalid(found, "is not a ChronoUnit");
    }
  }

  private static RateLimitType type(FtStyleKeys keys, FtStyleKeys.Found found) {
    try {
      return RateLimitType.valueOf(found.raw().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw keys.invalid(found, "is not fixed, rolling or smooth");
    }
  }
}
