package dev.bulwark.quarkus.deployment.devservices;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@code redis-server} this JVM started on a free port of the loopback interface, without
 * persistence, in a temporary directory; stopped by {@link #close()}, or when the JVM exits.
 */
final class RedisServerProcess implements AutoCloseable {

  /** How long a starting server may take to answer PING (it takes milliseconds). */
  private static final long READY_TIMEOUT_MILLIS = 10_000;

  /** Another process may take the free port before the server binds it: try a new one. */
  private static final int ATTEMPTS = 3;

  private final Process process;
  private final int port;
  private final Path directory;
  private final Thread stopAtExit;

  private RedisServerProcess(Process process, int port, Path directory) {
    this.process = process;
    this.port = port;
    this.directory = directory;
    this.stopAtExit = new Thread(this::stop, "bulwark-redis-server-stop");
    Runtime.getRuntime().addShutdownHook(stopAtExit);
  }

  static RedisServerProcess start(Path executable) {
    IllegalStateException failure = null;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        return startOnce(executable, freePort());
      } catch (IllegalStateException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    throw failure;
  }

  private static RedisServerProcess startOnce(Path executable, int port) {
    Path directory;
    Process process;
    try {
      directory = Files.createTempDirectory("bulwark-redis-");
      process =
          new ProcessBuilder(
                  executable.toString(),
                  "--port",
                  Integer.toString(port),
                  "--bind",
                  "127.0.0.1",
                  "--save",
                  "",
                  "--appendonly",
                  "no",
                  "--dir",
                  directory.toString())
              .redirectErrorStream(true)
              .redirectOutput(directory.resolve("redis.log").toFile())
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not start " + executable, e);
    }
    RedisServerProcess server = new RedisServerProcess(process, port, directory);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MILLIS);
    while (!server.answersPing()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        String log = server.log();
        server.close();
        throw new IllegalStateException(
            executable
                + " did not answer PING on port "
                + port
                + (process.isAlive() ? " within " + READY_TIMEOUT_MILLIS + " ms" : " (it exited)")
                + ": "
                + log);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        server.close();
        throw new IllegalStateException("Interrupted while " + executable + " started", e);
      }
    }
    return server;
  }

  int port() {
    return port;
  }

  String url() {
    return "redis://127.0.0.1:" + port;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void close() {
    stop();
    try {
      Runtime.getRuntime().removeShutdownHook(stopAtExit);
    } catch (IllegalStateException e) {
      // the JVM is exiting: the hook runs (or ran) anyway
    }
  }

  private void stop() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    deleteDirectory();
  }

  private boolean answersPing() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
      socket.setSoTimeout(500);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] reply = new byte[7];
      int read = in.readNBytes(reply, 0, reply.length);
      return new String(reply, 0, read, StandardCharsets.US_ASCII).equals("+PONG\r\n");
    } catch (IOException e) {
      return false;
    }
  }

  private String log() {
    try {
      return Files.readString(directory.resolve("redis.log"), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private void deleteDirectory() {
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // a temporary directory: what is left is the system's to clean
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port on the loopback interface", e);
    }
  }
}
