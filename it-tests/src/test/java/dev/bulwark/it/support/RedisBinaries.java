package dev.bulwark.it.support;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assertions;
import org.opentest4j.TestAbortedException;

/**
 * Finds the {@code redis-server} and {@code redis-cli} executables for tests that run servers of
 * their own (an outage, a cluster). {@code BULWARK_TEST_REDIS_BIN} names their folder; otherwise
 * the {@code PATH} is searched. Missing binaries skip the test, or fail it under {@code CI=true}.
 */
public final class RedisBinaries {

  public static final String VARIABLE = "BULWARK_TEST_REDIS_BIN";

  private RedisBinaries() {}

  public static Path server() {
    return require("redis-server");
  }

  public static Path cli() {
    return require("redis-cli");
  }

  private static Path require(String name) {
    Optional<Path> found = find(name);
    if (found.isPresent()) {
      return found.get();
    }
    String message =
        name
            + " is not on the PATH: install Redis (Debian: redis-server, redis-tools) or set "
            + VARIABLE
            + " to the folder that holds it";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      return Assertions.fail(message + " (CI=true: failing instead of skipping)");
    }
    throw new TestAbortedException(message);
  }

  static Optional<Path> find(String name) {
    String folder = System.getenv(VARIABLE);
    String path = folder != null && !folder.isBlank() ? folder : System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
