package dev.bulwark.quarkus.devui;

/**
 * One effective value of a limit and where it came from.
 *
 * @param source the config key that set it, or {@code annotation} / {@code default}
 */
public record MemberView(String member, String value, String source) {}
