package dev.bulwark.quarkus.devui;

import java.util.List;

/**
 * One method's declaration of a limit (or programmatic use) with its effective values.
 *
 * @param on the method ({@code class#method}) or {@code programmatic}
 * @param disabledBy the key that disabled it, or null while it is enabled
 */
public record DeclarationView(String on, String disabledBy, List<MemberView> members) {}
