package dev.bulwark.benchmarks.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Records the commands clients send to Redis, through {@code MONITOR} on a connection of its own.
 * Redis 7 prints a command that a script runs with the source {@code [db lua]} instead of a client
 * address; those never crossed the network and are left out by {@link Command#fromClient()}.
 * MONITOR does not show administrative commands (CONFIG, CLIENT …), which no library sends per
 * call.
 */
final class MonitorTap implements AutoCloseable {

  /** One line of MONITOR output: who sent what. */
  record Command(String source, String name, String line) {

    boolean fromClient() {
      return !source.endsWith(" lua");
    }

    /** The client's address, e.g. {@code 127.0.0.1:52538}. */
    String client() {
      return source.substring(source.indexOf(' ') + 1);
    }

    static Command parse(String line) {
      int open = line.indexOf('[');
      int close = line.indexOf(']', open);
      String source = line.substring(open + 1, close);
      int nameStart = line.indexOf('"', close) + 1;
      String name = line.substring(nameStart, line.indexOf('"', nameStart)).toLowerCase();
      return new Command(source, name, line);
    }
  }

  private final Socket monitor;
  private final BufferedReader replies;
  private final List<String> lines = new ArrayList<>();
  private final Thread reader;

  /** Starts monitoring; returns once Redis has acknowledged, so nothing sent after is missed. */
  MonitorTap() {
    try {
      monitor = new Socket(RedisTarget.host(), RedisTarget.port());
      monitor.setTcpNoDelay(true);
      monitor.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
      replies =
          new BufferedReader(
              new InputStreamReader(monitor.getInputStream(), StandardCharsets.ISO_8859_1));
      String ok = replies.readLine();
      if (!"+OK".equals(ok)) {
        throw new IllegalStateException("MONITOR answered " + ok);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // read as it comes, so that Redis never has to buffer a long run's output for us
    reader = new Thread(this::read, "monitor-tap");
    reader.setDaemon(true);
    reader.start();
  }

  private void read() {
    try {
      for (String line = replies.readLine(); line != null; line = replies.readLine()) {
        synchronized (lines) {
          lines.add(line);
          lines.notifyAll();
        }
      }
    } catch (IOException closed) {
      // close() ends the recording
    }
  }

  /**
   * Everything recorded since the tap started or was last drained. A marker sent on another
   * connection closes the batch, so commands that clients sent before this call are all in it.
   */
  List<Command> drain() throws InterruptedException {
    String marker = "bench-monitor-end-" + UUID.randomUUID();
    try (Socket other = new Socket(RedisTarget.host(), RedisTarget.port())) {
      OutputStream out = other.getOutputStream();
      out.write(("ECHO " + marker + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      other.getInputStream().read(new byte[256]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Command> commands = new ArrayList<>();
    synchronized (lines) {
      for (int seen = 0; ; ) {
        while (seen == lines.size()) {
          lines.wait(10_000);
          if (seen == lines.size()) {
            throw new IllegalStateException("no end marker from MONITOR within 10 s");
          }
        }
        String line = lines.get(seen++);
        if (line.contains(marker)) {
          lines.subList(0, seen).clear();
          return commands;
        }
        commands.add(Command.parse(line.substring(1)));
      }
    }
  }

  @Override
  public void close() {
    try {
      monitor.close();
      reader.join(1_000);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
