package dev.bulwark.faulttolerance;

import dev.bulwark.cdi.MappedGuarding;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitKind;
import java.util.ArrayList;
import java.util.List;

/**
 * A MicroProfile FT annotation made cluster-wide: the Bulwark declaration, how Bulwark must run it
 * so FT sees its rejections as its own, and the MicroProfile FT config keys it was chosen by and
 * took members from, which the bridge logs (the startup table shows the declaration's source as the
 * annotation).
 */
record Mapped(
    LimitDeclaration declaration,
    MappedGuarding guarding,
    List<String> keys,
    List<String> ignored) {

  Mapped(LimitDeclaration declaration, MappedGuarding guarding, List<String> keys) {
    this(declaration, guarding, keys, List.of());
  }

  /**
   * One warning per key of Bulwark's set for this limit, which earlier versions read and which the
   * mapped limit ignores (FT's own keys set it), naming the key that sets the member now.
   */
  static List<String> ignoredKeys(
      ConfigLookup config, LimitKind kind, String name, FtStyleKeys keys, List<String> members) {
    List<String> warnings = new ArrayList<>();
    // the name earlier versions gave a mapped limit had no parameter types
    int parameters = name.indexOf('(');
    List<String> names =
        parameters < 0 ? List.of(name) : List.of(name, name.substring(0, parameters));
    for (String member : members) {
      for (String limit : names) {
        String key = "bulwark." + kind.configSegment() + "." + limit + "." + member;
        if (config.get(key).filter(v -> !v.isBlank()).isPresent()) {
          warnings.add(
              "config key '"
                  + key
                  + "' is ignored: the limit of a mapped MicroProfile FT annotation takes its "
                  + member
                  + " from FT's keys only; set "
                  + keys.memberKey(member)
                  + " instead");
        }
      }
    }
    return warnings;
  }

  String describe() {
    return declaration.source()
        + " on "
        + declaration.origin().describe()
        + " is cluster-wide as '"
        + declaration.declaredName()
        + "', from config keys "
        + String.join(", ", keys);
  }
}
