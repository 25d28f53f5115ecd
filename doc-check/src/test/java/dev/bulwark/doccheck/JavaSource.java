package dev.bulwark.doccheck;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One Java source file as the key check reads it: its string literals, comments left out. */
final class JavaSource {

  /** A string literal's content (escapes as written) and the line it is on. */
  record Literal(String value, int line, int start, int end) {}

  private static final Pattern TOKENS =
      Pattern.compile(
          "//[^\\n]*|/\\*.*?\\*/|\"\"\".*?\"\"\"|\"((?:[^\"\\\\\\n]|\\\\.)*)\"|'(?:[^'\\\\\\n]|\\\\.)+'",
          Pattern.DOTALL);

  private final String path;
  private final String text;
  private final List<Literal> literals = new ArrayList<>();

  JavaSource(String path, String text) {
    this.path = path;
    this.text = text;
    Matcher token = TOKENS.matcher(text);
    while (token.find()) {
      if (token.group(1) != null) {
        literals.add(
            new Literal(token.group(1), lineOf(token.start()), token.start(), token.end()));
      }
    }
  }

  String path() {
    return path;
  }

  /** The module: the path's first folder. */
  String module() {
    int slash = path.indexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  String text() {
    return text;
  }

  List<Literal> literals() {
    return literals;
  }

  Set<String> literalValues() {
    Set<String> values = new LinkedHashSet<>();
    literals.forEach(l -> values.add(l.value()));
    return values;
  }

  int lineOf(int offset) {
    int line = 1;
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }
}
