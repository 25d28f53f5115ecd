package dev.bulwark.benchmarks.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM that runs a benchmark class's {@code main} with {@code child} first among its
 * arguments, on this JVM's class path, and talks to its parent in lines: the parent writes commands
 * to its standard input, the child answers on its standard output. Its standard error goes to this
 * JVM's. Every process of a Linux host reads one monotonic clock ({@link System#nanoTime()}), so
 * the two sides' time stamps can be compared.
 */
final class ChildJvm implements AutoCloseable {

  private final Process process;
  private final BufferedReader fromChild;
  private final PrintStream toChild;

  ChildJvm(Class<?> main, List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.add("child");
    command.addAll(List.of(args));
    try {
      process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      fromChild =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      toChild = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void send(String line) {
    toChild.println(line);
  }

  /** The child's next line; fails when it ended instead. */
  String receive() {
    try {
      String line = fromChild.readLine();
      if (line == null) {
        throw new IllegalStateException("child JVM ended: exit " + process.waitFor());
      }
      return line;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Waits for the child's next line and fails unless it starts with {@code expected}. */
  String expect(String expected) {
    String line = receive();
    if (!line.startsWith(expected)) {
      throw new IllegalStateException("child JVM answered '" + line + "', not " + expected);
    }
    return line;
  }

  @Override
  public void close() {
    toChild.close();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  /** The child's side: its parent's commands, one line at a time, and its answers. */
  static final class Parent {
    private final BufferedReader commands =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

    /** The next command, or null when the parent closed the pipe. */
    String receive() throws IOException {
      return commands.readLine();
    }

    void send(String line) {
      System.out.println(line);
      System.out.flush();
    }
  }
}
