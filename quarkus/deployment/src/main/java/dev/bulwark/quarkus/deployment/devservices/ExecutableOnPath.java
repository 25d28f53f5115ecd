package dev.bulwark.quarkus.deployment.devservices;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/** Finds a program the way a shell does: the first executable file of that name on the PATH. */
final class ExecutableOnPath {

  private ExecutableOnPath() {}

  static Optional<Path> find(String name) {
    return find(name, System.getenv("PATH"));
  }

  static Optional<Path> find(String name, String path) {
    if (path == null || path.isBlank()) {
      return Optional.empty();
    }
    for (String directory : path.split(File.pathSeparator)) {
      if (directory.isBlank()) {
        continue;
      }
      try {
        Path candidate = Path.of(directory, name);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      } catch (InvalidPathException e) {
        // a PATH entry no file can be in: the shell skips it too
      }
    }
    return Optional.empty();
  }
}
