package dev.bulwark.faulttolerance;

import dev.bulwark.cdi.MappedGuarding;
import dev.bulwark.core.config.LimitDeclaration;
import java.util.List;

/**
 * A MicroProfile FT annotation made cluster-wide: the Bulwark declaration, how Bulwark must run it
 * so FT sees its rejections as its own, and the MicroProfile FT config keys it was chosen by and
 * took members from, which the bridge logs (the startup table shows the declaration's source as the
 * annotation).
 */
record Mapped(LimitDeclaration declaration, MappedGuarding guarding, List<String> keys) {

  String describe() {
    return "Bulwark: "
        + declaration.source()
        + " on "
        + declaration.origin().describe()
        + " is cluster-wide as '"
        + declaration.declaredName()
        + "', from config keys "
        + String.join(", ", keys);
  }
}
