package dev.bulwark.core.config;

import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One declaration of a limit, as neutral data, before any configuration is applied: what kind,
 * where (a bean method, or a name used through the programmatic API), and the raw member values
 * with where they came from. Every source of limits — an annotation the CDI extension found, the
 * programmatic API, another integration that maps its own annotation — turns what it found into
 * this, and {@link DefinitionResolver} resolves it once.
 *
 * @param kind what it declares
 * @param origin where: the FT-style keys and the messages derive from it
 * @param beanClass the bean class whose method carries it; null for programmatic use
 * @param method the guarded method; null for programmatic use
 * @param members member values by the annotation's member names ({@code value}, {@code
 *     waitingTime}, {@code waitingTimeUnit} …); a member not given takes the annotation's default
 * @param source where the given members came from, for the startup table: {@code annotation},
 *     {@code default}, or e.g. {@code @Bulkhead} for a mapped annotation
 * @param configurable whether Bulwark's config keys may override the members; false for a limit
 *     another integration has already resolved from its own keys (a mapped MicroProfile FT
 *     annotation must enforce exactly the values FT enforces, so Bulwark's keys must not reach it)
 * @param memberSources where single members came from when not from {@code source}: the config key
 *     another integration read a member from (e.g. {@code com.acme.Billing/charge/Bulkhead/value}
 *     for a mapped {@code @Bulkhead}'s value), for the startup table
 */
public record LimitDeclaration(
    LimitKind kind,
    Origin origin,
    Class<?> beanClass,
    Method method,
    Map<String, Object> members,
    String source,
    boolean configurable,
    Map<String, String> memberSources) {

  public LimitDeclaration {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(origin, "origin");
    members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
    memberSources = Map.copyOf(memberSources);
  }

  /** A declaration whose given members all came from {@code source}. */
  public LimitDeclaration(
      LimitKind kind,
      Origin origin,
      Class<?> beanClass,
      Method method,
      Map<String, Object> members,
      String source,
      boolean configurable) {
    this(kind, origin, beanClass, method, members, source, configurable, Map.of());
  }

  /** A declaration whose members Bulwark's config keys may override. */
  public LimitDeclaration(
      LimitKind kind,
      Origin origin,
      Class<?> beanClass,
      Method method,
      Map<String, Object> members,
      String source) {
    this(kind, origin, beanClass, method, members, source, true);
  }

  /**
   * A declaration whose members are final: resolved and checked as any other, but no config key of
   * Bulwark's (named, FT-style or global, nor {@code enabled}) applies to it.
   */
  public static LimitDeclaration settled(
      LimitKind kind,
      Origin origin,
      Class<?> beanClass,
      Method method,
      Map<String, Object> members,
      String source) {
    return new LimitDeclaration(kind, origin, beanClass, method, members, source, false);
  }

  /**
   * A settled declaration some of whose members came from config keys another integration read,
   * each named in {@code memberSources}.
   */
  public static LimitDeclaration settled(
      LimitKind kind,
      Origin origin,
      Class<?> beanClass,
      Method method,
      Map<String, Object> members,
      String source,
      Map<String, String> memberSources) {
    return new LimitDeclaration(
        kind, origin, beanClass, method, members, source, false, memberSources);
  }

  /** Where {@code member}'s given value came from: its own key, else {@link #source}. */
  public String source(String member) {
    return memberSources.getOrDefault(member, source);
  }

  /** The binding {@code annotation} on {@code method} of {@code beanClass}. */
  public static LimitDeclaration ofAnnotation(
      Class<?> beanClass, Method method, Origin origin, Annotation annotation) {
    LimitKind kind = LimitKind.of(annotation.annotationType());
    return new LimitDeclaration(
        kind, origin, beanClass, method, membersOf(annotation), "annotation");
  }

  /** A limit used by name through the programmatic API: named keys and defaults only. */
  public static LimitDeclaration programmatic(LimitKind kind, String name) {
    return new LimitDeclaration(
        kind, Origin.programmatic(), null, null, Map.of("name", name), "default");
  }

  /** The declared name, {@code ""} when the default name applies. */
  public String declaredName() {
    Object name = member("name");
    return (String) name;
  }

  /** A member's value: the given one, else the annotation type's default. */
  public Object member(String member) {
    Object given = members.get(member);
    if (given != null) {
      return given;
    }
    try {
      return kind.annotationType().getMethod(member).getDefaultValue();
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(
          kind.annotationName() + " has no member '" + member + "'", e);
    }
  }

  private static Map<String, Object> membersOf(Annotation annotation) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (Method member : annotation.annotationType().getDeclaredMethods()) {
      try {
        values.put(member.getName(), member.invoke(annotation));
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException(
            "Cannot read " + annotation.annotationType().getSimpleName() + "." + member.getName(),
            e);
      }
    }
    return values;
  }
}
