package dev.bulwark.jpa;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A MariaDB server of a test's own, in a temporary directory on a free port, for what the shared
 * server cannot be made to do (a time zone of the server, server options). Needs {@code mariadbd}
 * and {@code mariadb-install-db} (Debian's {@code mariadb-server}); without them the test is
 * skipped, or fails under {@code CI=true}.
 */
final class PrivateMariadb implements AutoCloseable {

  private static final String SERVER = "/usr/sbin/mariadbd";
  private static final String INSTALL = "/usr/bin/mariadb-install-db";

  private final Path directory;
  private final int port;
  private final Process server;

  /**
   * Starts a server whose process runs in time zone {@code zone} (its {@code SYSTEM} zone), with
   * {@code options} added to its command line.
   */
  PrivateMariadb(String zone, String... options) throws IOException, InterruptedException {
    if (!new File(SERVER).canExecute() || !new File(INSTALL).canExecute()) {
      String message = SERVER + " and " + INSTALL + " are needed (Debian package mariadb-server)";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        Assertions.fail(message + " (CI=true: failing instead of skipping)");
      }
      Assumptions.abort(message);
    }
    directory = Files.createTempDirectory("bulwark-mariadb");
    String user = System.getProperty("user.name");
    run(
        new ProcessBuilder(
            INSTALL,
            "--no-defaults",
            "--datadir=" + directory.resolve("data"),
            "--auth-root-authentication-method=normal",
            "--skip-test-db",
            "--user=" + user));
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    List<String> command = new ArrayList<>();
    command.add(SERVER);
    command.add("--no-defaults");
    command.add("--datadir=" + directory.resolve("data"));
    command.add("--socket=" + directory.resolve("sock"));
    command.add("--port=" + port);
    command.add("--bind-address=127.0.0.1");
    command.add("--skip-grant-tables");
    command.add("--user=" + user);
    command.addAll(List.of(options));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("TZ", zone);
    builder.redirectErrorStream(true);
    builder.redirectOutput(directory.resolve("server.log").toFile());
    server = builder.start();
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .ignoreExceptionsInstanceOf(SQLException.class)
          .until(
              () -> {
                try (Connection connection = connect()) {
                  return connection.isValid(1);
                }
              });
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  String url() {
    return "jdbc:mariadb://127.0.0.1:" + port + "/mysql?sslMode=disable";
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(url(), "root", "");
  }

  private void run(ProcessBuilder builder) throws IOException, InterruptedException {
    builder.redirectErrorStream(true);
    builder.redirectOutput(directory.resolve("install.log").toFile());
    Process process = builder.start();
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException(
          "mariadb-install-db failed: " + Files.readString(directory.resolve("install.log")));
    }
  }

  @Override
  public void close() {
    if (server != null) {
      server.destroy();
      try {
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
          server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    } catch (IOException e) {
      // a temporary directory left behind
    }
  }
}
