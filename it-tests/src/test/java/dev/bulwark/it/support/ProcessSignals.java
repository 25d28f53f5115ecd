package dev.bulwark.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * Stops and continues a process the test started (SIGSTOP, SIGCONT): it stands still as in a long
 * GC pause or a frozen VM — its sockets stay open, the kernel still accepts connections for it, no
 * thread of it runs — until it is continued.
 */
public final class ProcessSignals {

  private ProcessSignals() {}

  public static void stop(Process process) {
    send(process, "STOP");
  }

  public static void resume(Process process) {
    send(process, "CONT");
  }

  private static void send(Process process, String signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new AssertionError("kill -" + signal + " " + process.pid() + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
