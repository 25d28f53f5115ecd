package dev.bulwark.sample;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;

/**
 * The packaged sample ({@code quarkus-run.jar}) started as its own JVM on a free port, as a user
 * starts it, with {@code -D} properties. Every wait is bounded; {@link #close()} ends the process.
 */
final class SampleProcess implements AutoCloseable {

  private static final Path JAR = Path.of(System.getProperty("sample.jar"));
  private static final Duration START = Duration.ofSeconds(90);

  private final Process process;
  private final Path log;
  private final int port;

  private SampleProcess(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /** Starts the sample with these system properties; returns once it answers HTTP. */
  static SampleProcess start(String name, Map<String, String> properties)
      throws IOException, InterruptedException {
    int port = freePort();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-Dquarkus.http.port=" + port);
    properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
    command.add("-jar");
    command.add(JAR.toString());
    Path log = Files.createTempFile("sample-" + name, ".log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    SampleProcess sample = new SampleProcess(process, log, port);
    try {
      sample.awaitAnswer();
    } catch (InterruptedException | RuntimeException | AssertionError e) {
      sample.close();
      throw e;
    }
    return sample;
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  /** The process' console output so far. */
  String log() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void awaitAnswer() throws InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + START.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        Assertions.fail("The sample ended with exit code " + process.exitValue() + ":\n" + log());
      }
      try {
        HttpResponse<String> stats =
            client.send(
                HttpRequest.newBuilder(uri("/legacy/stats")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (stats.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    Assertions.fail("The sample did not answer within " + START + ":\n" + log());
  }

  /**
   * Stops the sample as a user or an orchestrator does, with SIGTERM, and returns its whole console
   * output once it has ended.
   */
  String stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      Assertions.fail("The sample did not stop within 60 s of SIGTERM:\n" + log());
    }
    return log();
  }

  @Override
  public void close() throws IOException {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      Files.deleteIfExists(log);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
