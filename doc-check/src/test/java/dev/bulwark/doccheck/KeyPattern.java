package dev.bulwark.doccheck;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A configuration key as the documents write it: dot-separated segments, of which some may be
 * placeholders ({@code <name>}, {@code <class>#<method>}). A placeholder stands for one segment, so
 * {@code bulwark.bulkhead.legacy-api.value} is an instance of {@code bulwark.bulkhead.<name>.value}
 * and {@code bulwark.bulkhead.legacy-api.valu} of nothing; or for several that end in a {@code
 * #}-name, as a default name {@code <FQCN>#<method>} does ({@code
 * bulwark.bulkhead.com.acme.Billing#charge.value}).
 */
record KeyPattern(List<String> segments) {

  static KeyPattern of(String key) {
    return new KeyPattern(Arrays.asList(key.split("\\.", -1)));
  }

  static boolean isPlaceholder(String segment) {
    return segment.contains("<");
  }

  boolean isTemplate() {
    return segments.stream().anyMatch(KeyPattern::isPlaceholder);
  }

  /**
   * A template that names nothing but its shape ({@code bulwark.<kind>.<name>.<member>}): no fixed
   * segment after {@code bulwark}. It describes keys instead of being one.
   */
  boolean isSchematic() {
    return segments.stream().skip(1).allMatch(KeyPattern::isPlaceholder);
  }

  /** Whether the key {@code key} is an instance of this pattern. */
  boolean matches(String key) {
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < segments.size(); i++) {
      if (i > 0) {
        regex.append("\\.");
      }
      String segment = segments.get(i);
      regex.append(isPlaceholder(segment) ? "(?:[^.]+|[^#]+#[^.]+)" : Pattern.quote(segment));
    }
    return Pattern.matches(regex.toString(), key);
  }

  /** Whether {@code other}, a template, fits: its placeholders where this one has placeholders. */
  boolean matches(KeyPattern other) {
    if (other.segments.size() != segments.size()) {
      return false;
    }
    for (int i = 0; i < segments.size(); i++) {
      String mine = segments.get(i);
      String theirs = other.segments.get(i);
      if (theirs.isEmpty()) {
        return false;
      }
      if (!isPlaceholder(mine) && !mine.equals(theirs)) {
        return false;
      }
      if (isPlaceholder(theirs) && !isPlaceholder(mine)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return String.join(".", segments);
  }
}
