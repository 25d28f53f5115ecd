package dev.bulwark.core.config;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockMode;
import dev.bulwark.RateLimitType;
import java.lang.annotation.Annotation;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

/**
 * Turns an annotation plus configuration into a definition, once per method. Every value is checked
 * here, so an invalid one fails the deployment instead of the first call.
 */
public final class DefinitionResolver {

  /**
   * Names become parts of store keys and config keys: a conservative alphabet, bounded length.
   * Parentheses, brackets and commas let a name carry a method's parameter types, as the names of
   * mapped MicroProfile FT annotations do to tell overloads apart; none of them means anything in a
   * Redis hash tag, and the JPA store hashes names.
   */
  private static final Pattern NAME =
      Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.:#$(),\\[\\]-]{0,199}");

  /** The shortest lease renewal can sustain; see {@code Members.lease()}. */
  public static final Duration MIN_LEASE = Duration.ofMillis(300);

  private final ConfigLookup config;
  private final LongAdder resolutions = new LongAdder();

  public DefinitionResolver(ConfigLookup config) {
    this.config = config;
  }

  /** Whether {@code name} may name a limit. */
  public static boolean isValidName(String name) {
    return NAME.matcher(name).matches();
  }

  /**
   * Resolves a declaration into its definition: every member from the annotation (or its default),
   * overridden by configuration in the documented precedence, and checked.
   *
   * @throws InvalidDefinitionException naming the method, the member and the config key
   */
  public LimitDefinition resolve(LimitDeclaration declaration) {
    resolutions.increment();
    return switch (declaration.kind()) {
      case BULKHEAD -> bulkhead(declaration);
      case RATE_LIMIT -> rateLimit(declaration);
      case LOCK -> lock(declaration);
    };
  }

  /** How many declarations this resolver has resolved: each should be resolved once. */
  public long resolutions() {
    return resolutions.sum();
  }

  public BulkheadDefinition bulkhead(Origin origin, DistributedBulkhead annotation) {
    return (BulkheadDefinition) resolve(annotated(origin, annotation));
  }

  /** A bulkhead used by name through the programmatic API: named keys and defaults only. */
  public BulkheadDefinition bulkhead(String name) {
    return (BulkheadDefinition) resolve(LimitDeclaration.programmatic(LimitKind.BULKHEAD, name));
  }

  public RateLimitDefinition rateLimit(Origin origin, DistributedRateLimit annotation) {
    return (RateLimitDefinition) resolve(annotated(origin, annotation));
  }

  /** A rate limit used by name through the programmatic API. */
  public RateLimitDefinition rateLimit(String name) {
    return (RateLimitDefinition) resolve(LimitDeclaration.programmatic(LimitKind.RATE_LIMIT, name));
  }

  public LockDefinition lock(Origin origin, DistributedLock annotation) {
    return (LockDefinition) resolve(annotated(origin, annotation));
  }

  /** A lock used by name through the programmatic API; the mode is chosen per call. */
  public LockDefinition lock(String name) {
    return (LockDefinition) resolve(LimitDeclaration.programmatic(LimitKind.LOCK, name));
  }

  private static LimitDeclaration annotated(Origin origin, Annotation annotation) {
    return LimitDeclaration.ofAnnotation(null, null, origin, annotation);
  }

  private BulkheadDefinition bulkhead(LimitDeclaration declaration) {
    Members m = members(declaration, false);
    BulkheadDefinition definition =
        new BulkheadDefinition(
            m.name,
            declaration.origin(),
            m.enabled(),
            m.positiveInt("value"),
            m.duration("waitingTime", "waiting-time", "waitingTimeUnit", true),
            m.lease(),
            m.sources());
    m.failIfInvalid();
    return definition;
  }

  private RateLimitDefinition rateLimit(LimitDeclaration declaration) {
    Members m = members(declaration, false);
    RateLimitDefinition definition =
        new RateLimitDefinition(
            m.name,
            declaration.origin(),
            m.enabled(),
            m.positiveInt("value"),
            m.duration("window", "window", "windowUnit", false),
            m.enumValue("type", RateLimitType.class),
            m.duration("waitingTime", "waiting-time", "waitingTimeUnit", true),
            m.sources());
    m.failIfInvalid();
    if (definition.window().toNanos() / definition.value() == 0) {
      throw m.invalid(
          "value",
          definition.value()
              + " permits per "
              + Durations.format(definition.window())
              + " leave less than a nanosecond per permit",
          m.sources().get("value"));
    }
    return definition;
  }

  private LockDefinition lock(LimitDeclaration declaration) {
    Members m = members(declaration, true);
    LockDefinition definition =
        new LockDefinition(
            m.name,
            declaration.origin(),
            m.enabled(),
            declaration.origin().isMethod()
                ? (LockMode) declaration.member("mode")
                : LockMode.WRITE,
            m.duration("waitingTime", "waiting-time", "waitingTimeUnit", true),
            m.lease(),
            m.sources());
    m.failIfInvalid();
    return definition;
  }

  private Members members(LimitDeclaration declaration, boolean defaultToClass) {
    LimitKind kind = declaration.kind();
    Origin origin = declaration.origin();
    String declared = declaration.declaredName();
    String name = declared;
    if (declared.isEmpty()) {
      if (!origin.isMethod()) {
        throw new InvalidDefinitionException(
            "A programmatic " + kind.annotationName() + " needs a non-empty name");
      }
      name = defaultToClass ? origin.className() : origin.className() + "#" + origin.methodName();
    }
    if (!isValidName(name)) {
      throw new InvalidDefinitionException(
          "Invalid @"
              + kind.annotationName()
              + " on "
              + origin.describe()
              + ": member 'name' = '"
              + name
              + "' must match "
              + NAME.pattern());
    }
    ConfigLookup keys = declaration.configurable() ? config : ConfigLookup.empty();
    return new Members(kind, declaration, origin, name, new MemberSource(keys, kind, origin, name));
  }

  /**
   * Resolves the members of one definition, recording where each value came from. A bad member is
   * recorded and stands in with a harmless value, so that every bad member of the definition is
   * reported at once ({@link #failIfInvalid}).
   */
  private static final class Members {
    private final LimitKind kind;
    private final LimitDeclaration annotation;
    private final Origin origin;
    private final String name;
    private final MemberSource source;
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final Set<String> problems = new LinkedHashSet<>();
    private final Set<String> badMembers = new HashSet<>();

    Members(
        LimitKind kind,
        LimitDeclaration annotation,
        Origin origin,
        String name,
        MemberSource source) {
      this.kind = kind;
      this.annotation = annotation;
      this.origin = origin;
      this.name = name;
      this.source = source;
    }

    Map<String, String> sources() {
      return Collections.unmodifiableMap(sources);
    }

    /** Every problem found in the definition, in one exception. */
    void failIfInvalid() {
      if (!problems.isEmpty()) {
        throw new InvalidDefinitionException(String.join(System.lineSeparator(), problems));
      }
    }

    private void report(String member, InvalidDefinitionException problem) {
      badMembers.add(member);
      problems.add(problem.getMessage());
    }

    /** {@link MemberSource#find}; a key that cannot be read (a bad shorthand) is reported. */
    private Optional<MemberSource.Found> find(String member, String namedMember) {
      try {
        return source.find(member, namedMember);
      } catch (InvalidDefinitionException e) {
        report(member, e);
        return Optional.empty();
      }
    }

    boolean enabled() {
      Optional<MemberSource.Found> found;
      try {
        found = source.findEnabled();
      } catch (InvalidDefinitionException e) {
        report("enabled", e);
        return true;
      }
      if (found.isEmpty()) {
        return true;
      }
      if (found.get().key().equals(MemberSource.FT_NON_FALLBACK_ENABLED)) {
        // MicroProfile FT's own key, which FT reads through MicroProfile Config's converter:
        // whatever it does not take as true is false, never an error
        sources.put("enabled", found.get().key());
        return List.of("true", "1", "yes", "y", "on")
            .contains(found.get().raw().trim().toLowerCase(Locale.ROOT));
      }
      boolean enabled;
      try {
        enabled = SettingReader.parseBoolean(found.get().raw());
      } catch (IllegalArgumentException e) {
        report("enabled", invalid("enabled", e.getMessage(), found.get()));
        return true;
      }
      sources.put("enabled", found.get().key());
      return enabled;
    }

    int positiveInt(String member) {
      Optional<MemberSource.Found> found = find(member, member);
      int value;
      if (found.isPresent()) {
        try {
          value = SettingReader.parseInt(found.get().raw(), 0, Integer.MAX_VALUE);
        } catch (IllegalArgumentException e) {
          report(member, invalid(member, e.getMessage(), found.get()));
          return 1;
        }
        sources.put(member, found.get().key());
      } else {
        value = (Integer) annotation.member(member);
        sources.put(member, annotationSource(member));
      }
      if (value <= 0) {
        report(member, invalid(member, value + " must be greater than 0", sources.get(member)));
        return 1;
      }
      return value;
    }

    Duration duration(String member, String namedMember, String unitMember, boolean zeroAllowed) {
      ChronoUnit unit = (ChronoUnit) annotation.member(unitMember);
      Duration standIn = zeroAllowed ? Duration.ZERO : Duration.ofMinutes(1);
      Optional<MemberSource.Found> unitOverride = find(unitMember, null);
      if (unitOverride.isPresent()) {
        try {
          unit = ChronoUnit.valueOf(unitOverride.get().raw().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
          report(
              member,
              invalid(
                  unitMember,
                  "'" + unitOverride.get().raw() + "' is not a ChronoUnit",
                  unitOverride.get()));
          return standIn;
        }
        sources.put(unitMember, unitOverride.get().key());
      }
      Optional<MemberSource.Found> found = find(member, namedMember);
      Duration value;
      String where;
      try {
        if (found.isPresent()) {
          where = found.get().key();
          value = SettingReader.parseDuration(found.get().raw(), unit);
        } else {
          where = annotationSource(member);
          value = Durations.of((Long) annotation.member(member), unit);
        }
        value.toNanos(); // every store works in nanoseconds or coarser: it must fit
      } catch (IllegalArgumentException e) {
        report(
            member,
            invalid(
                member,
                e.getMessage(),
                found.map(MemberSource.Found::key).orElse(annotationSource(member))));
        return standIn;
      } catch (ArithmeticException e) {
        report(
            member,
            invalid(
                member,
                "is longer than the longest duration Bulwark can keep (about 292 years)",
                found.map(MemberSource.Found::key).orElse(annotationSource(member))));
        return standIn;
      }
      sources.put(member, where);
      if (!zeroAllowed && value.isZero()) {
        report(member, invalid(member, "must be greater than 0", where));
        return standIn;
      }
      return value;
    }

    <E extends Enum<E>> E enumValue(String member, Class<E> type) {
      Optional<MemberSource.Found> found = find(member, member);
      if (found.isEmpty()) {
        sources.put(member, annotationSource(member));
        return type.cast(annotation.member(member));
      }
      try {
        E value = Enum.valueOf(type, found.get().raw().toUpperCase(Locale.ROOT));
        sources.put(member, found.get().key());
        return value;
      } catch (IllegalArgumentException e) {
        report(
            member,
            invalid(
                member,
                "'" + found.get().raw() + "' is not a " + type.getSimpleName(),
                found.get()));
        return type.cast(annotation.member(member));
      }
    }

    /** Where the declaration's value of {@code member} came from (no key of Bulwark's set it). */
    private String annotationSource(String member) {
      return annotation.source(member);
    }

    /**
     * A lease long enough for renewal to keep it alive: the renewer renews a running call's lease
     * once a third of it has passed, on a tick of a tenth of the shortest lease, and a renewal must
     * reach the store (and survive a pause of the JVM) before the lease runs out.
     */
    Duration lease() {
      Duration lease = duration("lease", "lease", "leaseUnit", false);
      if (!badMembers.contains("lease") && lease.compareTo(MIN_LEASE) < 0) {
        report(
            "lease",
            invalid(
                "lease",
                Durations.format(lease)
                    + " is shorter than the minimum lease of "
                    + Durations.format(MIN_LEASE)
                    + ", the shortest a running call's renewal can keep alive",
                sources.get("lease")));
      }
      return lease;
    }

    /**
     * The named key that sets {@code member}: a unit is part of the duration's key, as in {@code
     * bulwark.bulkhead.<name>.waiting-time=200ms}.
     */
    private String namedKey(String member) {
      String named =
          switch (member) {
            case "waitingTime", "waitingTimeUnit" -> "waiting-time";
            case "windowUnit" -> "window";
            case "leaseUnit" -> "lease";
            default -> member;
          };
      return "bulwark." + kind.configSegment() + "." + name + "." + named;
    }

    InvalidDefinitionException invalid(String member, String problem, MemberSource.Found found) {
      return invalid(member, problem, found.key());
    }

    InvalidDefinitionException invalid(String member, String problem, String where) {
      String key =
          where.equals(annotation.source()) || where.equals("annotation") || where.equals("default")
              ? "the " + where + " (no config key set; e.g. " + namedKey(member) + ")"
              : "config key '" + where + "'";
      return new InvalidDefinitionException(
          "Invalid @"
              + kind.annotationName()
              + " '"
              + name
              + "' on "
              + origin.describe()
              + ": member '"
              + member
              + "' from "
              + key
              + ": "
              + problem);
    }
  }
}
