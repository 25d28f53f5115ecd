package dev.bulwark.doccheck;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Markdown file as the checks read it: its prose (with code blanked out, so that a link or key
 * inside code is not read as one, while offsets and line numbers stay those of the file), its code
 * spans and fenced blocks, and the anchors its headings get on GitHub.
 */
final class MarkdownFile {

  /** A piece of the file's text and the line it starts on. */
  record Piece(String text, int line) {}

  /** A fenced code block: its text, first line and info string ({@code properties}, …). */
  private record Fenced(Piece piece, String language) {}

  private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})\\s*([\\w-]*).*$");
  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1", Pattern.DOTALL);
  private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern SETEXT_UNDERLINE = Pattern.compile("^ {0,3}(=+|-+)\\s*$");
  private static final Pattern HTML_ANCHOR =
      Pattern.compile("<a\\s[^>]*(?:name|id)\\s*=\\s*\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);
  private static final Pattern INLINE_LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");

  private final String path;
  private final String text;
  private final String prose;
  private final List<Piece> codeSpans = new ArrayList<>();
  private final List<Fenced> fencedBlocks = new ArrayList<>();
  private final Set<String> anchors = new LinkedHashSet<>();

  MarkdownFile(String path, String text) {
    this.path = path;
    this.text = text;
    StringBuilder withoutFences = blankFencedBlocks(text);
    this.prose = blankCodeSpans(withoutFences);
    collectAnchors();
  }

  String path() {
    return path;
  }

  String text() {
    return text;
  }

  /** The text with fenced blocks and code spans replaced by spaces (newlines kept). */
  String prose() {
    return prose;
  }

  List<Piece> codeSpans() {
    return codeSpans;
  }

  /** The fenced blocks whose info string is {@code language} ({@code properties}, …). */
  List<Piece> fencedBlocks(String language) {
    return fencedBlocks.stream()
        .filter(b -> b.language().equals(language))
        .map(Fenced::piece)
        .toList();
  }

  /** The anchors a link may name after '#': each heading's GitHub slug, and HTML anchors. */
  Set<String> anchors() {
    return anchors;
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

  /**
   * The anchor GitHub gives a heading: its text as rendered (code marks, emphasis and link targets
   * dropped), lower case, without punctuation but '-' and '_', each space a '-'.
   */
  static String slug(String heading) {
    String rendered = INLINE_LINK.matcher(heading).replaceAll("$1");
    rendered = rendered.replaceAll("<[^>]+>", "").replace("`", "").replace("*", "");
    return rendered
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "")
        .replace(' ', '-');
  }

  private StringBuilder blankFencedBlocks(String source) {
    StringBuilder out = new StringBuilder(source);
    String[] lines = source.split("\n", -1);
    int offset = 0;
    String openFence = null;
    int blockStart = 0;
    int blockLine = 0;
    String language = "";
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      Matcher fence = FENCE.matcher(line);
      if (openFence == null && fence.matches()) {
        openFence = fence.group(1);
        language = fence.group(2).toLowerCase(Locale.ROOT);
        blockStart = offset + line.length() + 1;
        blockLine = i + 2;
        blank(out, offset, offset + line.length());
      } else if (openFence != null && closes(openFence, line)) {
        Piece block = new Piece(source.substring(Math.min(blockStart, offset), offset), blockLine);
        fencedBlocks.add(new Fenced(block, language));
        blank(out, offset, offset + line.length());
        openFence = null;
      } else if (openFence != null) {
        blank(out, offset, offset + line.length());
      }
      offset += line.length() + 1;
    }
    return out;
  }

  /**
   * Whether {@code line} closes a block opened by {@code fence}: the same marks, at least as many.
   */
  private static boolean closes(String fence, String line) {
    String marks = line.strip();
    char mark = fence.charAt(0);
    return marks.length() >= fence.length() && marks.chars().allMatch(c -> c == mark);
  }

  private String blankCodeSpans(StringBuilder withoutFences) {
    StringBuilder out = new StringBuilder(withoutFences);
    Matcher span = CODE_SPAN.matcher(withoutFences);
    while (span.find()) {
      codeSpans.add(new Piece(span.group(2), lineOf(span.start())));
      blank(out, span.start(), span.end());
    }
    return out.toString();
  }

  private static void blank(StringBuilder text, int from, int to) {
    for (int i = from; i < to && i < text.length(); i++) {
      if (text.charAt(i) != '\n') {
        text.setCharAt(i, ' ');
      }
    }
  }

  private void collectAnchors() {
    Map<String, Integer> seen = new HashMap<>();
    String[] proseLines = prose.split("\n", -1);
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (proseLines[i].isBlank()) {
        continue; // a blank line, or a line inside a fenced block
      }
      Matcher atx = ATX_HEADING.matcher(lines[i]);
      String heading = null;
      if (atx.matches()) {
        heading = atx.group(1);
      } else if (i + 1 < lines.length
          && SETEXT_UNDERLINE.matcher(lines[i + 1]).matches()
          && !lines[i].strip().startsWith("|")
          && !lines[i].strip().startsWith("-")
          && (i == 0 || lines[i - 1].isBlank())) {
        heading = lines[i].strip();
      }
      if (heading != null) {
        String slug = slug(heading);
        int count = seen.merge(slug, 1, Integer::sum);
        anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
      }
      Matcher html = HTML_ANCHOR.matcher(lines[i]);
      while (html.find()) {
        anchors.add(html.group(1));
      }
    }
  }
}
