package dev.bulwark.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Another instance of the service that enforced bulkhead {@value #LIMIT} with a different limit and
 * recorded it in the store's table before the application started; the application must report the
 * conflict in its log, which the JPA profiles write to a file of this test JVM.
 */
final class ConflictingDefinition {

  static final String LIMIT = "legacy-api";
  static final String DEFINITION = "value=99 (another build)";
  static final String INSTANCE = "an-older-instance";

  private ConflictingDefinition() {}

  /** Records the other instance's definition, creating the store's tables if need be. */
  static void recordIn(StoreDatabase database, String ddlResource) {
    database.createTablesUnlessPresent(ddlResource);
    database.recordDefinition("P", LIMIT, DEFINITION, INSTANCE);
  }

  /** The application's log file under {@code profile}. */
  static Path log(String profile) {
    return Path.of("target", "quarkus-" + profile + "-" + ProcessHandle.current().pid() + ".log")
        .toAbsolutePath();
  }

  /** The log lines that report the conflict. */
  static List<String> reported(String profile) {
    Path log = log(profile);
    if (!Files.exists(log)) {
      return List.of();
    }
    try {
      return Files.readAllLines(log, StandardCharsets.UTF_8).stream()
          .filter(line -> line.contains("bulkhead '" + LIMIT + "' is defined differently"))
          .toList();
    } catch (IOException e) {
      throw new AssertionError("Cannot read " + log, e);
    }
  }
}
