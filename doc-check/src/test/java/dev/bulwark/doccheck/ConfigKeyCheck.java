package dev.bulwark.doccheck;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The configuration keys of {@code docs/configuration.md} and of the code agree.
 *
 * <p><b>Documented keys</b> are the {@code bulwark.*} keys in the page's code spans and {@code
 * properties} blocks. Each must be read in some module's {@code src/main/java}: its whole text is a
 * string literal there, or one file holds a literal prefix ({@code "bulwark.redis."}) and the rest
 * ({@code "connect-timeout"}). A template ({@code bulwark.bulkhead.<name>.value}) is read when one
 * module's literals spell its fixed parts ({@code "bulwark."}, {@code "bulkhead"}, {@code
 * "value"}); a key that is an instance of a template is an example of it. A template with no fixed
 * part after {@code bulwark} ({@code bulwark.<kind>.<name>.<member>}) only describes the others. An
 * FT-style key ({@code <class>/<method>/DistributedBulkhead/waitingTime}) is read when its
 * annotation is a class or literal of the code and its member a literal.
 *
 * <p><b>Keys in the code</b> must be documented: a literal that is a whole {@code bulwark.*} key, a
 * key named in a literal's text (an error message), a prefix constant's keys ({@code PREFIX =
 * "bulwark.redis."} with {@code read.text("url")} or {@code PREFIX + "url"}), a key built around a
 * name ({@code "bulwark.bulkhead." + name + ".value"}), and every {@code bulwark.*} key a {@code
 * src/main} properties file or a Markdown {@code properties} block sets. A literal named as a meter
 * in {@code docs/operations.md} is a meter, not a key; a tool or test module's own system
 * properties ({@code bulwark-modelcheck.seed}) need only be named in some Markdown file.
 */
final class ConfigKeyCheck {

  static final String CONFIGURATION = "docs/configuration.md";
  static final String OPERATIONS = "docs/operations.md";

  /**
   * A {@code bulwark.*} key or template in text, not inside a longer name, nor a URI's authority
   * after its scheme (the {@code tag:bulwark.dev,…} of the HTTP problem types).
   */
  private static final Pattern KEY =
      Pattern.compile("(?<![\\w.$/#:-])bulwark(?:\\.(?:[A-Za-z0-9_-]|<[^<>\\s]+>|#)+)+");

  private static final Pattern WHOLE_KEY = Pattern.compile("bulwark(?:\\.[a-z0-9][a-z0-9-]*)+");
  private static final Pattern KEY_PREFIX = Pattern.compile("bulwark(?:\\.[a-z0-9][a-z0-9-]*)+\\.");
  private static final Pattern SUFFIX = Pattern.compile("[a-z][a-z0-9-]*(?:\\.[a-z][a-z0-9-]*)*");
  private static final Pattern FT_STYLE =
      Pattern.compile("(?:[^\\s/=]+/){0,2}([A-Z][A-Za-z0-9]*)/([a-z][A-Za-z0-9]*)(?:=\\S*)?");
  private static final Pattern CALL_BEFORE = Pattern.compile("\\b(\\w+)\\(\\s*$");
  private static final Pattern NAME_BETWEEN = Pattern.compile("\\s*\\+\\s*[\\w.()]+\\s*\\+\\s*");
  private static final Set<String> STRING_METHODS =
      Set.of(
          "equals",
          "equalsIgnoreCase",
          "startsWith",
          "endsWith",
          "contains",
          "matches",
          "indexOf",
          "lastIndexOf",
          "split",
          "replace",
          "replaceAll",
          "compile",
          "format",
          "append",
          "orElse",
          "getOrDefault",
          "getLogger",
          "forName");

  private final Repository repository;
  private final List<JavaSource> sources = new ArrayList<>();
  private final Map<String, Set<String>> literalsByModule = new HashMap<>();
  private final Set<String> allLiterals = new LinkedHashSet<>();
  private final Map<String, Integer> documented = new LinkedHashMap<>();
  private final Set<KeyPattern> templates = new LinkedHashSet<>();
  private final Set<String> meters = new LinkedHashSet<>();
  private final List<String> ftStyle = new ArrayList<>();
  private final Set<String> classNames = new LinkedHashSet<>();
  private int codeKeys;

  ConfigKeyCheck(Repository repository) {
    this.repository = repository;
    for (String path : repository.filesEndingWith(".java")) {
      if (!path.contains("/src/main/java/")) {
        continue;
      }
      JavaSource source = new JavaSource(path, repository.read(path));
      sources.add(source);
      literalsByModule
          .computeIfAbsent(source.module(), m -> new LinkedHashSet<>())
          .addAll(source.literalValues());
      allLiterals.addAll(source.literalValues());
      String file = path.substring(path.lastIndexOf('/') + 1);
      classNames.add(file.substring(0, file.length() - ".java".length()));
    }
    if (repository.files().contains(CONFIGURATION)) {
      MarkdownFile configuration = new MarkdownFile(CONFIGURATION, repository.read(CONFIGURATION));
      for (MarkdownFile.Piece span : configuration.codeSpans()) {
        Matcher key = KEY.matcher(span.text());
        while (key.find()) {
          documented.putIfAbsent(key.group(), span.line());
        }
        if (FT_STYLE.matcher(span.text().strip()).matches()) {
          ftStyle.add(span.text().strip() + "@" + span.line());
        }
      }
      for (MarkdownFile.Piece block : configuration.fencedBlocks("properties")) {
        String[] lines = block.text().split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
          String key = propertyKey(lines[i]);
          if (key != null && key.startsWith("bulwark.")) {
            documented.putIfAbsent(key, block.line() + i);
          }
        }
      }
      documented.keySet().stream()
          .map(KeyPattern::of)
          .filter(k -> k.isTemplate() && !k.isSchematic())
          .forEach(templates::add);
    }
    if (repository.files().contains(OPERATIONS)) {
      for (MarkdownFile.Piece span :
          new MarkdownFile(OPERATIONS, repository.read(OPERATIONS)).codeSpans()) {
        Matcher key = KEY.matcher(span.text());
        while (key.find()) {
          meters.add(key.group());
        }
      }
    }
  }

  /** How many keys and templates the page documents. */
  int documentedKeys() {
    return documented.size();
  }

  /** How many keys the code reads, builds or sets, as far as the check can see. */
  int codeKeys() {
    return codeKeys;
  }

  List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (!repository.files().contains(CONFIGURATION)) {
      problems.add(CONFIGURATION + ": missing");
      return problems;
    }
    documentedKeysAreRead(problems);
    ftStyleKeysAreRead(problems);
    codeKeysAreDocumented(problems);
    setKeysAreDocumented(problems);
    return problems;
  }

  // ---- the page against the code

  private void documentedKeysAreRead(List<String> problems) {
    for (Map.Entry<String, Integer> entry : documented.entrySet()) {
      KeyPattern key = KeyPattern.of(entry.getKey());
      boolean read;
      if (key.isSchematic()) {
        read = true;
      } else if (key.isTemplate()) {
        read = templateIsRead(key);
      } else {
        read = isExample(entry.getKey()) || concreteKeyIsRead(entry.getKey());
      }
      if (!read) {
        problems.add(
            CONFIGURATION
                + ":"
                + entry.getValue()
                + ": "
                + entry.getKey()
                + ": documented, but no src/main reads it");
      }
    }
  }

  private boolean isExample(String key) {
    return templates.stream().anyMatch(t -> t.matches(key));
  }

  private boolean concreteKeyIsRead(String key) {
    if (allLiterals.contains(key)) {
      return true;
    }
    for (JavaSource source : sources) {
      Set<String> literals = source.literalValues();
      for (int dot = key.indexOf('.'); dot > 0; dot = key.indexOf('.', dot + 1)) {
        if (literals.contains(key.substring(0, dot + 1))
            && literals.contains(key.substring(dot + 1))) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether one module's literals spell every run of fixed segments of {@code template}. */
  private boolean templateIsRead(KeyPattern template) {
    List<List<String>> runs = new ArrayList<>();
    List<String> run = new ArrayList<>();
    for (String segment : template.segments()) {
      if (KeyPattern.isPlaceholder(segment)) {
        if (!run.isEmpty()) {
          runs.add(run);
        }
        run = new ArrayList<>();
      } else {
        run.add(segment);
      }
    }
    if (!run.isEmpty()) {
      runs.add(run);
    }
    for (Set<String> literals : literalsByModule.values()) {
      if (runs.stream().allMatch(r -> spelled(r, 0, literals))) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code run} from {@code from} on splits into groups that are each a literal. */
  private static boolean spelled(List<String> run, int from, Set<String> literals) {
    if (from == run.size()) {
      return true;
    }
    for (int to = from + 1; to <= run.size(); to++) {
      String group = String.join(".", run.subList(from, to));
      boolean literal =
          literals.contains(group)
              || literals.contains(group + ".")
              || literals.contains("." + group)
              || literals.contains("." + group + ".");
      if (literal && spelled(run, to, literals)) {
        return true;
      }
    }
    return false;
  }

  private void ftStyleKeysAreRead(List<String> problems) {
    for (String entry : ftStyle) {
      int at = entry.lastIndexOf('@');
      String key = entry.substring(0, at);
      Matcher parts = FT_STYLE.matcher(key);
      if (!parts.matches()) {
        continue;
      }
      String annotation = parts.group(1);
      String member = parts.group(2);
      boolean known = classNames.contains(annotation) || allLiterals.contains(annotation);
      if (!known || !allLiterals.contains(member)) {
        problems.add(
            CONFIGURATION
                + ":"
                + entry.substring(at + 1)
                + ": "
                + key
                + ": documented, but no src/main knows "
                + (known ? "the member " + member : "the annotation " + annotation));
      }
    }
  }

  // ---- the code against the page

  private void codeKeysAreDocumented(List<String> problems) {
    for (JavaSource source : sources) {
      boolean tooling = repository.isToolingModule(source.path());
      Set<String> prefixConstants = new LinkedHashSet<>();
      Map<String, String> prefixOfConstant = new HashMap<>();
      List<JavaSource.Literal> literals = source.literals();
      for (int i = 0; i < literals.size(); i++) {
        JavaSource.Literal literal = literals.get(i);
        String value = literal.value();
        String where = source.path() + ":" + literal.line() + ": ";
        if (WHOLE_KEY.matcher(value).matches()) {
          codeKeys++;
          if (!documentedKey(value) && !meters.contains(value) && !toolingKey(tooling, value)) {
            problems.add(where + value + ": not in " + CONFIGURATION);
          }
        } else if (KEY_PREFIX.matcher(value).matches()) {
          String before = source.text().substring(0, literal.start());
          Matcher constant = Pattern.compile("\\b(\\w+)\\s*=\\s*$").matcher(before);
          if (constant.find() && value.chars().filter(c -> c == '.').count() >= 2) {
            prefixConstants.add(value);
            prefixOfConstant.put(constant.group(1), value);
          }
          if (i + 1 < literals.size()) {
            JavaSource.Literal next = literals.get(i + 1);
            String between = source.text().substring(literal.end(), next.start());
            if (NAME_BETWEEN.matcher(between).matches()
                && next.value().startsWith(".")
                && SUFFIX.matcher(next.value().substring(1)).matches()) {
              codeKeys++;
              KeyPattern built = KeyPattern.of(value + "<name>" + next.value());
              if (templates.stream().noneMatch(t -> t.matches(built))) {
                problems.add(
                    where + built + ": built here, but no such template in " + CONFIGURATION);
              }
            }
          }
        } else {
          Matcher named = KEY.matcher(value);
          while (named.find()) {
            String key = named.group();
            if (key.endsWith(".") || key.contains("<")) {
              continue;
            }
            if (!documentedKey(key)
                && !documentedPrefix(key)
                && !meters.contains(key)
                && !toolingKey(tooling, key)) {
              problems.add(where + key + ": named in a message, but not in " + CONFIGURATION);
            }
          }
        }
      }
      for (String prefix : prefixConstants) {
        int found = 0;
        for (JavaSource.Literal literal : literals) {
          String suffix = literal.value();
          if (!SUFFIX.matcher(suffix).matches() || suffix.startsWith("bulwark")) {
            continue;
          }
          String before =
              source.text().substring(Math.max(0, literal.start() - 120), literal.start());
          Matcher call = CALL_BEFORE.matcher(before);
          boolean argument = call.find() && !STRING_METHODS.contains(call.group(1));
          boolean appended =
              prefixOfConstant.entrySet().stream()
                  .anyMatch(
                      e ->
                          e.getValue().equals(prefix)
                              && Pattern.compile("\\b" + e.getKey() + "\\s*\\+\\s*$")
                                  .matcher(before)
                                  .find());
          if (argument || appended) {
            found++;
            codeKeys++;
            String key = prefix + suffix;
            if (!documentedKey(key)) {
              problems.add(
                  source.path()
                      + ":"
                      + literal.line()
                      + ": "
                      + key
                      + ": read here (prefix \""
                      + prefix
                      + "\"), but not in "
                      + CONFIGURATION);
            }
          }
        }
        if (found == 0) {
          problems.add(
              source.path()
                  + ": holds the key prefix \""
                  + prefix
                  + "\" but the check sees no key read under it; it understands"
                  + " reader.method(\"suffix\", …) and PREFIX + \"suffix\"");
        }
      }
    }
  }

  /** Keys a {@code src/main} properties file or a Markdown {@code properties} block sets. */
  private void setKeysAreDocumented(List<String> problems) {
    for (String path : repository.filesEndingWith(".properties")) {
      if (!path.contains("/src/main/")) {
        continue;
      }
      String[] lines = repository.read(path).split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        checkSetKey(path, i + 1, propertyKey(lines[i]), problems);
      }
    }
    for (String path : repository.filesEndingWith(".md")) {
      MarkdownFile file = new MarkdownFile(path, repository.read(path));
      for (MarkdownFile.Piece block : file.fencedBlocks("properties")) {
        String[] lines = block.text().split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
          checkSetKey(path, block.line() + i, propertyKey(lines[i]), problems);
        }
      }
    }
  }

  private void checkSetKey(String path, int line, String key, List<String> problems) {
    if (key == null || !key.startsWith("bulwark.") || key.contains("<")) {
      return;
    }
    codeKeys++;
    if (!documentedKey(key)) {
      problems.add(path + ":" + line + ": " + key + ": set here, but not in " + CONFIGURATION);
    }
  }

  /** The key of a properties line, without a Quarkus profile ({@code %redis.}); null if none. */
  private static String propertyKey(String line) {
    String trimmed = line.strip();
    if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("!")) {
      return null;
    }
    Matcher key = Pattern.compile("^([^=:\\s]+)\\s*[=:]?").matcher(trimmed);
    if (!key.find()) {
      return null;
    }
    String name = key.group(1);
    if (name.startsWith("%")) {
      int dot = name.indexOf('.');
      name = dot < 0 ? name : name.substring(dot + 1);
    }
    return name;
  }

  private boolean documentedKey(String key) {
    return documented.containsKey(key) || isExample(key);
  }

  private boolean documentedPrefix(String key) {
    return documented.keySet().stream().anyMatch(d -> d.startsWith(key + "."));
  }

  private boolean toolingKey(boolean tooling, String key) {
    if (!tooling) {
      return false;
    }
    return repository.filesEndingWith(".md").stream()
        .anyMatch(md -> repository.read(md).contains(key));
  }
}
