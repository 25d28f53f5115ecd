package dev.bulwark.it.cluster.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The full classpath of the test JVM, for the worker JVMs it starts. Surefire may start the test
 * JVM with a manifest-only booter jar: {@code java.class.path} is then that one jar, whose manifest
 * {@code Class-Path} lists the real entries (as URLs) — expanded here, so a worker does not depend
 * on a temporary jar surefire deletes when it ends.
 */
public final class TestClasspath {

  private TestClasspath() {}

  public static String get() {
    Set<String> entries = new LinkedHashSet<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.isBlank()) {
        continue;
      }
      entries.add(entry);
      entries.addAll(manifestClassPath(Path.of(entry)));
    }
    List<String> existing = new ArrayList<>();
    for (String entry : entries) {
      if (Files.exists(Path.of(entry)) && !isManifestOnly(Path.of(entry))) {
        existing.add(entry);
      }
    }
    return String.join(File.pathSeparator, existing);
  }

  private static List<String> manifestClassPath(Path entry) {
    if (!entry.toString().endsWith(".jar") || !Files.isRegularFile(entry)) {
      return List.of();
    }
    try (JarFile jar = new JarFile(entry.toFile())) {
      Manifest manifest = jar.getManifest();
      String classPath =
          manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
      if (classPath == null || classPath.isBlank()) {
        return List.of();
      }
      List<String> resolved = new ArrayList<>();
      URI base = entry.toAbsolutePath().getParent().toUri();
      for (String item : classPath.trim().split("\\s+")) {
        URI uri = base.resolve(item);
        resolved.add(Path.of(uri).toString());
      }
      return resolved;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the manifest of " + entry, e);
    }
  }

  /** A jar with a Class-Path manifest and no classes: surefire's booter, not needed twice. */
  private static boolean isManifestOnly(Path entry) {
    if (!entry.toString().endsWith(".jar") || !Files.isRegularFile(entry)) {
      return false;
    }
    try (JarFile jar = new JarFile(entry.toFile())) {
      return jar.stream().noneMatch(e -> e.getName().endsWith(".class"))
          && !manifestClassPath(entry).isEmpty();
    } catch (IOException e) {
      return false;
    }
  }
}
