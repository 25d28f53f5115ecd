package dev.bulwark.doccheck;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every relative link of every Markdown file of a repository must reach a file or folder of the
 * repository, and a {@code #anchor} on a Markdown file one of its headings. Links with a scheme
 * ({@code https:}, {@code mailto:}) are not followed. Links inside code are not links.
 */
final class LinkCheck {

  /** {@code [text](target "title")} and {@code ![alt](target)}; the text may hold one [...]. */
  private static final Pattern INLINE =
      Pattern.compile(
          "!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(\\s*(<[^>\\n]*>|[^\\s()]+(?:\\([^\\s()]*\\)[^\\s()]*)*)"
              + "(?:\\s+(?:\"[^\"]*\"|'[^']*'))?\\s*\\)");

  /** {@code [label]: target} at the start of a line. */
  private static final Pattern REFERENCE =
      Pattern.compile("(?m)^ {0,3}\\[[^\\]]+\\]:\\s+(<[^>\\n]*>|\\S+)");

  private static final Pattern HTML = Pattern.compile("(?:href|src)\\s*=\\s*\"([^\"]+)\"");
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:|^//");

  private final Repository repository;
  private final Map<String, MarkdownFile> parsed = new HashMap<>();

  LinkCheck(Repository repository) {
    this.repository = repository;
  }

  /** One line per broken link: {@code file:line: target: why}. */
  List<String> problems() {
    List<String> problems = new ArrayList<>();
    for (String path : repository.filesEndingWith(".md")) {
      MarkdownFile file = markdown(path);
      for (Pattern pattern : List.of(INLINE, REFERENCE, HTML)) {
        Matcher link = pattern.matcher(file.prose());
        while (link.find()) {
          String target = link.group(1);
          if (target.startsWith("<") && target.endsWith(">")) {
            target = target.substring(1, target.length() - 1);
          }
          String why = check(path, target);
          if (why != null) {
            problems.add(path + ":" + file.lineOf(link.start()) + ": " + target + ": " + why);
          }
        }
      }
    }
    return problems;
  }

  /** Why the link {@code target} in {@code from} is broken, or null when it resolves. */
  private String check(String from, String target) {
    if (target.isEmpty() || SCHEME.matcher(target).find()) {
      return null;
    }
    int hash = target.indexOf('#');
    String pathPart = decode(hash < 0 ? target : target.substring(0, hash));
    String anchor = hash < 0 ? null : decode(target.substring(hash + 1));
    int query = pathPart.indexOf('?');
    if (query >= 0) {
      pathPart = pathPart.substring(0, query);
    }
    String resolved;
    if (pathPart.isEmpty()) {
      resolved = from;
    } else {
      Path base = pathPart.startsWith("/") ? Path.of("") : parentOf(from);
      Path joined = base.resolve(pathPart.startsWith("/") ? pathPart.substring(1) : pathPart);
      resolved = joined.normalize().toString().replace('\\', '/');
      if (resolved.startsWith("..")) {
        return "leaves the repository";
      }
    }
    if (!repository.contains(resolved)) {
      return "no such file or folder in the repository (" + resolved + ")";
    }
    if (anchor != null && !anchor.isEmpty() && resolved.endsWith(".md")) {
      if (!markdown(resolved).anchors().contains(anchor)) {
        return "no heading in " + resolved + " has the anchor #" + anchor;
      }
    }
    return null;
  }

  private MarkdownFile markdown(String path) {
    return parsed.computeIfAbsent(path, p -> new MarkdownFile(p, repository.read(p)));
  }

  private static Path parentOf(String path) {
    Path parent = Path.of(path).getParent();
    return parent == null ? Path.of("") : parent;
  }

  /** Percent-decoding of a URL path ('+' stays '+', unlike form decoding). */
  private static String decode(String part) {
    if (part.indexOf('%') < 0) {
      return part;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int i = 0;
    while (i < part.length()) {
      if (part.charAt(i) == '%' && isHex(part, i + 1) && isHex(part, i + 2)) {
        bytes.write(Integer.parseInt(part.substring(i + 1, i + 3), 16));
        i += 3;
      } else {
        int codePoint = part.codePointAt(i);
        byte[] encoded = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
        bytes.write(encoded, 0, encoded.length);
        i += Character.charCount(codePoint);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static boolean isHex(String s, int i) {
    return i < s.length() && Character.digit(s.charAt(i), 16) >= 0;
  }
}
