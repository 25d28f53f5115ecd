package dev.bulwark.quarkus.devui;

import java.util.List;

/**
 * One limit (a kind and a name) on the Dev UI page: every declaration of it and its live state.
 *
 * @param kind {@code bulkhead}, {@code rate-limit} or {@code lock}, as in its config keys
 * @param live null when the limit is not enforced (disabled, or Bulwark is)
 */
public record LimitView(
    String kind, String name, List<DeclarationView> declarations, LiveState live) {}
