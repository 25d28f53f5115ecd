package dev.bulwark.it.cluster.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.opentest4j.TestAbortedException;

/**
 * libfaketime (Debian package {@code faketime}) shifts the wall clock of one worker JVM: preloaded,
 * it offsets {@code CLOCK_REALTIME} and so {@link System#currentTimeMillis()}. CLOCK_MONOTONIC is
 * left alone ({@code DONT_FAKE_MONOTONIC=1}), so the worker's {@link System#nanoTime()} stays
 * comparable with the other JVMs' — the records need that. Missing, the test is skipped, or fails
 * under {@code CI=true}.
 */
public final class LibFaketime {

  public static final String VARIABLE = "BULWARK_TEST_LIBFAKETIME";
  public static final Path DEBIAN_PATH =
      Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

  private LibFaketime() {}

  /**
   * The environment that shifts a process's wall clock by {@code offset} ({@code +10m}) from {@code
   * after} its start on: the clock then jumps while the JVM runs, which a store that read the JVM's
   * clock would notice just as well.
   */
  public static Map<String, String> shiftedBy(String offset, Duration after) {
    return Map.of(
        "LD_PRELOAD",
        library().toString(),
        "FAKETIME",
        offset,
        "DONT_FAKE_MONOTONIC",
        "1",
        // libfaketime's fix for timed waits on CLOCK_MONOTONIC makes every clock read and timed
        // wait of a JVM about ten times slower; with the monotonic clock not faked it has nothing
        // to fix, and without it the shifted JVM runs at the others' pace
        "FAKETIME_FORCE_MONOTONIC_FIX",
        "0",
        "FAKETIME_START_AFTER_SECONDS",
        String.valueOf(after.toSeconds()));
  }

  public static Path library() {
    String configured = System.getenv(VARIABLE);
    Path path = configured == null || configured.isBlank() ? DEBIAN_PATH : Path.of(configured);
    if (Files.isReadable(path)) {
      return path;
    }
    String message =
        "libfaketime not found at "
            + path
            + ": install the Debian package faketime or set "
            + VARIABLE
            + " to libfaketime.so.1";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      return Assertions.fail(message + " (CI=true: failing instead of skipping)");
    }
    throw new TestAbortedException(message);
  }
}
