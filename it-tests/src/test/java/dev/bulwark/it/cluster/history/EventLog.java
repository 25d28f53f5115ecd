package dev.bulwark.it.cluster.history;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The worker's event file. Every line goes to the kernel with one unbuffered write, so a worker
 * killed with SIGKILL leaves every line it wrote behind (the page cache outlives the process) — the
 * test learns which calls were inside when the JVM died.
 *
 * <p>Lines: {@code ENTER …} and {@code CALL …} (see {@link CallRecord}), {@code INFO name value},
 * {@code STALL fromNanos toNanos} (see {@link StallWatch}) and a final {@code DONE}.
 */
public final class EventLog implements AutoCloseable {

  public static final String INFO_LINE = "INFO";
  public static final String STALL_LINE = "STALL";
  public static final String DONE_LINE = "DONE";

  private final FileOutputStream out;

  public EventLog(Path file) {
    try {
      this.out = new FileOutputStream(file.toFile(), true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public void entered(CallRecord call) {
    write(call.toLine(CallRecord.ENTER_LINE));
  }

  public void ended(CallRecord call) {
    write(call.toLine(CallRecord.CALL_LINE));
  }

  public void info(String name, Object value) {
    write(INFO_LINE + "\t" + name + "\t" + value);
  }

  public void stalled(long fromNanos, long toNanos) {
    write(STALL_LINE + "\t" + fromNanos + "\t" + toNanos);
  }

  public void done() {
    write(DONE_LINE);
  }

  private synchronized void write(String line) {
    try {
      out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
