package dev.bulwark.it.payara;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Payara Micro in its own process with one WAR, on a free port of 127.0.0.1 only, without
 * clustering, Hazelcast or phone-home. Its console goes to {@code payara.log} in the run's folder,
 * which the tests read. Every wait is bounded; {@link #close()} (and, should the test JVM be
 * stopped, a shutdown hook) ends the process.
 */
final class MicroServer implements AutoCloseable {

  /** The system property naming the Payara Micro jar; set by it-tests' pom. */
  static final String JAR_PROPERTY = "payara.micro.jar";

  /** The folder under which each run gets its own (target/payara in a Maven build). */
  static final String WORK_PROPERTY = "payara.micro.work";

  /**
   * Payara Micro's last boot line, logged after its deployments succeeded or failed: "Payara Micro
   * 6.2025.10 (build 42) ready in 9,083 (ms)".
   */
  private static final Pattern READY =
      Pattern.compile("Payara Micro .* ready in ([0-9.,]+) \\(ms\\)");

  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private final Process process;
  private final Path runDirectory;
  private final Path log;
  private final int port;
  private final String contextRoot;
  private final Thread killer;
  private final long startedNanos = System.nanoTime();

  private MicroServer(Process process, Path runDirectory, Path log, int port, String contextRoot) {
    this.process = process;
    this.runDirectory = runDirectory;
    this.log = log;
    this.port = port;
    this.contextRoot = contextRoot;
    this.killer = new Thread(process::destroyForcibly, "payara-micro-killer");
    Runtime.getRuntime().addShutdownHook(killer);
  }

  /**
   * The Payara Micro jar, or the test is skipped with a message saying how to provide it &mdash;
   * failed instead when the environment says {@code CI=true}.
   */
  static Path jar() {
    String configured = System.getProperty(JAR_PROPERTY);
    if (configured != null && !configured.isBlank() && Files.isRegularFile(Path.of(configured))) {
      return Path.of(configured);
    }
    String message =
        "No Payara Micro jar for this test ("
            + JAR_PROPERTY
            + "="
            + configured
            + "): run it through Maven, which copies fish.payara.extras:payara-micro into"
            + " it-tests/target/payara unless -Dpayara.micro.skip=true, or pass -D"
            + JAR_PROPERTY
            + "=/path/to/payara-micro.jar";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      return Assertions.fail(message + " (CI=true: failing instead of skipping)");
    }
    Assumptions.abort(message);
    throw new AssertionError("unreachable");
  }

  /** Starts Payara Micro deploying {@code war}; returns at once (see {@link #awaitBoot}). */
  static MicroServer start(Path jar, Path war, String runName) throws IOException {
    Path work =
        Path.of(
            System.getProperty(
                WORK_PROPERTY, System.getProperty("java.io.tmpdir") + "/bulwark-payara"));
    Path run = work.resolve(runName);
    deleteRecursively(run);
    Files.createDirectories(run.resolve("tmp"));
    Files.createDirectories(run.resolve("root"));
    int port = freePort();
    // Payara Micro has no bind-address option: a preboot command sets the listener's address.
    // Hazelcast, which --nocluster still starts on *:6900, is switched off altogether.
    Path preboot = run.resolve("preboot.asadmin");
    Files.writeString(
        preboot,
        "set configs.config.server-config.network-config.network-listeners"
            + ".network-listener.http-listener.address=127.0.0.1\n"
            + "set configs.config.server-config.hazelcast-config-specific-configuration"
            + ".enabled=false\n");
    Path log = run.resolve("payara.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx512m",
                "-XX:+UseSerialGC",
                "-Djava.io.tmpdir=" + run.resolve("tmp"),
                "-jar",
                jar.toString(),
                "--deploy",
                war.toString(),
                "--port",
                Integer.toString(port),
                "--nocluster",
                "--nohazelcast",
                "--disablephonehome",
                "--prebootcommandfile",
                preboot.toString(),
                "--rootdir",
                run.resolve("root").toString(),
                "--unpackdir",
                run.resolve("unpack").toString()));
    Process process =
        new ProcessBuilder(command)
            .directory(run.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(nullFile()))
            .start();
    String contextRoot = war.getFileName().toString().replaceFirst("\\.war$", "");
    return new MicroServer(process, run, log, port, contextRoot);
  }

  /**
   * Waits until Payara Micro has booted and processed its deployment (its "ready in" line), or its
   * process has ended, or {@code timeout} has passed (then fails with the log's tail).
   *
   * @return Payara's own boot time in milliseconds
   */
  long awaitBoot(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher ready = READY.matcher(log());
      if (ready.find()) {
        return Long.parseLong(ready.group(1).replaceAll("[.,]", ""));
      }
      if (!process.isAlive()) {
        return Assertions.fail(
            "Payara Micro ended with exit code "
                + process.exitValue()
                + " before booting:\n"
                + tail());
      }
      Thread.sleep(100);
    }
    return Assertions.fail(
        "Payara Micro did not boot within " + timeout.toSeconds() + " s:\n" + tail());
  }

  /**
   * Waits until {@code path} of the application answers 200, within {@code timeout}; fails with the
   * log's tail otherwise (the deployment failed, or the process ended).
   */
  void awaitAnswer(HttpClient client, String path, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        Assertions.fail(
            "Payara Micro ended with exit code " + process.exitValue() + ":\n" + tail());
      }
      try {
        HttpResponse<String> response =
            client.send(
                HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return;
        }
        last = "HTTP " + response.statusCode();
      } catch (IOException e) {
        last = e.toString();
      }
      Thread.sleep(200);
    }
    Assertions.fail(
        path
            + " did not answer 200 within "
            + timeout.toSeconds()
            + " s (last: "
            + last
            + "):\n"
            + tail());
  }

  /** {@code http://127.0.0.1:<port>/<context root>/<path>}. */
  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + "/" + contextRoot + "/" + path);
  }

  int port() {
    return port;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Duration sinceStart() {
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }

  /** Payara Micro's console output so far. */
  String log() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Path logFile() {
    return log;
  }

  /** The last lines of the log, for failure messages. */
  String tail() {
    String[] lines = log().split("\\R");
    int from = Math.max(0, lines.length - 60);
    return String.join("\n", java.util.Arrays.asList(lines).subList(from, lines.length));
  }

  /** Stops Payara Micro (gracefully, then forcibly) and removes its unpacked runtime. */
  @Override
  public void close() throws IOException {
    boolean interrupted = false;
    try {
      process.destroy();
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      interrupted = true;
      process.destroyForcibly();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(killer);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down: the hook runs anyway
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
      return;
    }
    deleteRecursively(runDirectory.resolve("unpack"));
    deleteRecursively(runDirectory.resolve("root"));
    deleteRecursively(runDirectory.resolve("tmp"));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static java.io.File nullFile() {
    return new java.io.File(
        System.getProperty("os.name").toLowerCase().startsWith("windows") ? "NUL" : "/dev/null");
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
