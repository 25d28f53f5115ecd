package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.cluster.history.History;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestWatcher;
import org.opentest4j.TestAbortedException;

/**
 * Keeps the history files of a failed multi-JVM test and deletes those of a passed one: every
 * {@link ClusterRun} writes its run's {@link History} under {@code target/histories/}, and a test
 * that fails names the files in its failure message, whatever assertion failed. Tests run one at a
 * time in a fork, so the files written since the current test began are its own.
 */
public final class KeptHistories
    implements BeforeEachCallback, TestWatcher, TestExecutionExceptionHandler {

  private static final List<Path> WRITTEN = new ArrayList<>();

  /** Notes a history file the current test wrote. */
  public static synchronized void written(Path file) {
    if (!WRITTEN.contains(file)) {
      WRITTEN.add(file);
    }
  }

  private static synchronized List<Path> takeWritten() {
    List<Path> files = List.copyOf(WRITTEN);
    WRITTEN.clear();
    return files;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    takeWritten();
  }

  @Override
  public void testSuccessful(ExtensionContext context) {
    for (Path file : takeWritten()) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable thrown)
      throws Throwable {
    List<Path> files;
    synchronized (KeptHistories.class) {
      files = List.copyOf(WRITTEN);
    }
    String message = String.valueOf(thrown.getMessage());
    List<Path> unnamed =
        files.stream().filter(f -> !message.contains(f.toAbsolutePath().toString())).toList();
    if (thrown instanceof TestAbortedException || unnamed.isEmpty()) {
      throw thrown;
    }
    throw new AssertionError(
        message
            + "\n(history kept at "
            + String.join(", ", unnamed.stream().map(f -> f.toAbsolutePath().toString()).toList())
            + ")",
        thrown);
  }
}
