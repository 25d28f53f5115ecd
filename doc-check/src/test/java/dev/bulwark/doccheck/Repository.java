package dev.bulwark.doccheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The files of a repository that the checks read, by path relative to its root ('/'-separated). In
 * a git checkout these are the tracked files (what a fresh clone has, so a link to a file that only
 * exists locally fails); elsewhere, every file outside build output and hidden folders.
 */
final class Repository {

  private final Path root;
  private final Set<String> files;

  private Repository(Path root, Set<String> files) {
    this.root = root;
    this.files = files;
  }

  /** The repository at {@code root}, listed by git when it is a git checkout, else by walking. */
  static Repository at(Path root) {
    Path normalized = root.toAbsolutePath().normalize();
    Set<String> tracked = Files.exists(normalized.resolve(".git")) ? gitFiles(normalized) : null;
    return new Repository(normalized, tracked != null ? tracked : walk(normalized));
  }

  /** The repository the build checks: the system property set by the module's pom. */
  static Repository ofBuild() {
    String where = System.getProperty("doccheck.repository");
    return at(where != null ? Path.of(where) : Path.of("").toAbsolutePath().getParent());
  }

  Path root() {
    return root;
  }

  Set<String> files() {
    return files;
  }

  List<String> filesEndingWith(String suffix) {
    return files.stream().filter(f -> f.endsWith(suffix)).toList();
  }

  /** Whether {@code path} is one of the files, or a folder holding some. */
  boolean contains(String path) {
    if (files.contains(path)) {
      return true;
    }
    String folder = path.endsWith("/") ? path : path + "/";
    return path.isEmpty() || files.stream().anyMatch(f -> f.startsWith(folder));
  }

  String read(String path) {
    try {
      return Files.readString(root.resolve(path), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  /**
   * Whether the module holding {@code path} (its first folder) is a tool or test module rather than
   * something users deploy: its pom skips deployment, or it is a test kit.
   */
  boolean isToolingModule(String path) {
    int slash = path.indexOf('/');
    if (slash < 0) {
      return false;
    }
    String module = path.substring(0, slash);
    if (module.endsWith("-tck")) {
      return true;
    }
    String pom = module + "/pom.xml";
    return files.contains(pom)
        && read(pom).replaceAll("\\s", "").contains("<maven.deploy.skip>true</maven.deploy.skip>");
  }

  private static Set<String> gitFiles(Path root) {
    try {
      Process git =
          new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z")
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      byte[] out = git.getInputStream().readAllBytes();
      if (!git.waitFor(60, TimeUnit.SECONDS) || git.exitValue() != 0) {
        return null;
      }
      Set<String> files = new TreeSet<>();
      for (String file : new String(out, StandardCharsets.UTF_8).split("\0")) {
        // a tracked file deleted in the working tree is not there to link to
        if (!file.isEmpty() && Files.isRegularFile(root.resolve(file))) {
          files.add(file);
        }
      }
      return files;
    } catch (IOException e) {
      return null; // no git on this machine: walk instead
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static Set<String> walk(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      Set<String> files = new TreeSet<>();
      paths
          .filter(Files::isRegularFile)
          .map(p -> root.relativize(p).toString().replace('\\', '/'))
          .filter(Repository::isSource)
          .forEach(files::add);
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
  }

  private static boolean isSource(String path) {
    for (String part : path.split("/")) {
      if (part.startsWith(".") || part.equals("target") || part.equals("node_modules")) {
        return false;
      }
    }
    return true;
  }
}
