package dev.bulwark.it.cluster.harness;

import dev.bulwark.it.support.ProcessSignals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Starts worker JVMs ({@link ClusterWorker}) as real processes: {@code java} of the running JDK,
 * the test's full classpath, the given system properties and environment, stdout and stderr in
 * files beside the worker's event file. {@link #close()} kills whatever still runs, so no test
 * leaves a JVM behind.
 */
public final class WorkerProcesses implements AutoCloseable {

  /** A started worker JVM. */
  public static final class Worker {
    private final String name;
    private final Process process;
    private final Path events;
    private final Path stdout;
    private final Path stderr;
    private volatile boolean killed;

    Worker(String name, Process process, Path events, Path stdout, Path stderr) {
      this.name = name;
      this.process = process;
      this.events = events;
      this.stdout = stdout;
      this.stderr = stderr;
    }

    public String name() {
      return name;
    }

    public Path events() {
      return events;
    }

    public Path stderr() {
      return stderr;
    }

    public boolean isAlive() {
      return process.isAlive();
    }

    /**
     * SIGKILL ({@link Process#destroyForcibly()} on Linux): no shutdown hook, no release, no
     * further lease renewal. Returns once the process is gone.
     */
    public void kill() {
      killed = true;
      process.destroyForcibly();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          throw new AssertionError(name + " survived SIGKILL for 10 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }

    public boolean killed() {
      return killed;
    }

    /**
     * SIGSTOP ({@link ProcessSignals}): not its lease renewer either runs until {@link #resume()}.
     */
    public void pause() {
      ProcessSignals.stop(process);
    }

    public void resume() {
      ProcessSignals.resume(process);
    }

    /** Why this worker is not running as it should: it ended with a failure; null if fine. */
    public String failure() {
      if (killed || process.isAlive()) {
        return null;
      }
      int code = process.exitValue();
      return code == 0 ? null : name + " exited with " + code + ": " + tail(stderr);
    }

    public String stderrText() {
      try {
        return Files.exists(stderr) ? Files.readString(stderr) : "";
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public String toString() {
      return name + " (" + stdout.getParent() + ")";
    }
  }

  private final Path dir;
  private final List<Worker> workers = new ArrayList<>();
  private final String classpath = TestClasspath.get();

  public WorkerProcesses(Path dir) {
    this.dir = dir;
  }

  /**
   * Starts a worker JVM. {@code properties} become {@code -D} options (Bulwark's config), {@code
   * env} is added to the inherited environment (for example {@code LD_PRELOAD} of libfaketime).
   */
  public Worker start(
      String name, List<String> args, Map<String, String> properties, Map<String, String> env) {
    Path events = dir.resolve(name + ".events");
    Path stdout = dir.resolve(name + ".out");
    Path stderr = dir.resolve(name + ".err");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // small and quick to boot: several workers share two cores with the test and Redis
    command.addAll(
        List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"));
    // GC pauses beside the STALL lines, for whoever reads a failed run
    command.add("-Xlog:gc:file=" + dir.resolve(name + ".gc.log"));
    String logging = System.getProperty("java.util.logging.config.file");
    if (logging != null) {
      command.add("-Djava.util.logging.config.file=" + logging);
    }
    properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
    command.add("-cp");
    command.add(classpath);
    command.add(ClusterWorker.class.getName());
    command.add("worker=" + name);
    command.add("events=" + events);
    command.addAll(args);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .directory(dir.toFile());
    builder.environment().putAll(env);
    try {
      Files.writeString(
          dir.resolve(name + ".command"),
          command.stream().map(WorkerProcesses::quote).collect(Collectors.joining(" ")) + "\n");
      Worker worker = new Worker(name, builder.start(), events, stdout, stderr);
      workers.add(worker);
      return worker;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start worker " + name, e);
    }
  }

  public List<Worker> all() {
    return List.copyOf(workers);
  }

  /** The first failure among the workers (an exit code other than 0), or null. */
  public String firstFailure() {
    return workers.stream().map(Worker::failure).filter(f -> f != null).findFirst().orElse(null);
  }

  /**
   * Waits until every worker that is still alive has exited; fails the test if one outlives {@code
   * timeout} or exits with a code other than 0.
   */
  public void awaitExit(List<Worker> which, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Worker worker : which) {
      try {
        long left = Math.max(0, deadline - System.nanoTime());
        if (!worker.process.waitFor(left, TimeUnit.NANOSECONDS)) {
          throw new AssertionError(
              worker.name
                  + " still ran after "
                  + timeout
                  + "; its threads: "
                  + threadDump(worker)
                  + "; stderr: "
                  + tail(worker.stderr));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
      String failure = worker.failure();
      if (failure != null) {
        throw new AssertionError(failure);
      }
    }
  }

  /**
   * Where a worker that outlived its run was waiting: its threads, as {@code jcmd Thread.print}
   * prints them, written beside its stderr.
   */
  private static Path threadDump(Worker worker) {
    Path dump = worker.stderr.resolveSibling(worker.name + ".threads");
    String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    try {
      Process print =
          new ProcessBuilder(jcmd, Long.toString(worker.process.pid()), "Thread.print")
              .redirectErrorStream(true)
              .redirectOutput(dump.toFile())
              .start();
      if (!print.waitFor(30, TimeUnit.SECONDS)) {
        print.destroyForcibly();
      }
    } catch (IOException e) {
      return dump.resolveSibling(worker.name + ".threads (not taken: " + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return dump;
  }

  @Override
  public void close() {
    for (Worker worker : workers) {
      if (worker.process.isAlive()) {
        worker.process.destroyForcibly();
      }
    }
    for (Worker worker : workers) {
      try {
        worker.process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  public static String tail(Path file) {
    try {
      if (!Files.exists(file)) {
        return "(no " + file.getFileName() + ")";
      }
      String text = Files.readString(file);
      return text.length() > 4000 ? "…" + text.substring(text.length() - 4000) : text;
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  private static String quote(String arg) {
    return arg.matches("[A-Za-z0-9_./:=,+-]*") ? arg : "'" + arg.replace("'", "'\\''") + "'";
  }
}
