package dev.bulwark.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on a loopback port of its own in front of a server the test must not stop (a shared
 * database): clients connect to the relay, which copies bytes both ways. {@link #cut()} makes the
 * server unreachable as a crash of it would — the listening port closes (new connections are
 * refused) and every open connection is reset — and {@link #restore()} listens again on the same
 * port. {@link #pause()} makes it stand still instead, connections open. It counts the connections
 * that carried a reply from the server after the last restore, so a test can tell that its clients
 * came back.
 */
public final class TcpRelay implements AutoCloseable {

  private final InetSocketAddress target;
  private final int port;
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private final AtomicLong answeredSinceRestore = new AtomicLong();
  private volatile ServerSocket listener;
  private volatile long generation;
  private final Object pauseLock = new Object();
  private boolean paused; // guarded by pauseLock

  private TcpRelay(InetSocketAddress target, int port) {
    this.target = target;
    this.port = port;
  }

  /** A relay to {@code host:port}, listening on a free loopback port. */
  public static TcpRelay start(String host, int targetPort) {
    TcpRelay relay = new TcpRelay(new InetSocketAddress(host, targetPort), FreePorts.any());
    relay.restore();
    return relay;
  }

  public int port() {
    return port;
  }

  /** Connections opened since the last {@link #restore()} through which the server answered. */
  public long answeredSinceRestore() {
    return answeredSinceRestore.get();
  }

  /** Listens again on the same port (the server is reachable again). */
  public synchronized void restore() {
    if (listener != null) {
      return;
    }
    ServerSocket socket;
    try {
      socket = new ServerSocket();
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
    } catch (IOException e) {
      throw new UncheckedIOException("relay cannot listen on " + port, e);
    }
    listener = socket;
    answeredSinceRestore.set(0);
    long current = ++generation;
    Thread accepting = new Thread(() -> accept(socket, current), "relay-" + port + "-accept");
    accepting.setDaemon(true);
    accepting.start();
  }

  /**
   * Holds every byte in both directions, on open connections and new ones, until {@link #resume()}:
   * the server stands still as a stopped process would, its connections open, what was sent to it
   * delivered late.
   */
  public void pause() {
    synchronized (pauseLock) {
      paused = true;
    }
  }

  /** Passes bytes again after {@link #pause()}, what was held first. */
  public void resume() {
    synchronized (pauseLock) {
      paused = false;
      pauseLock.notifyAll();
    }
  }

  private void awaitResumed() throws InterruptedIOException {
    synchronized (pauseLock) {
      while (paused) {
        try {
          pauseLock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("relay paused");
        }
      }
    }
  }

  /** Stops listening and resets every open connection: the server is unreachable. */
  public synchronized void cut() {
    ServerSocket socket = listener;
    listener = null;
    if (socket != null) {
      closeQuietly(socket);
    }
    for (Socket connection : open) {
      reset(connection);
    }
    open.clear();
  }

  @Override
  public void close() {
    cut();
  }

  private void accept(ServerSocket socket, long acceptedIn) {
    while (!socket.isClosed()) {
      Socket client;
      try {
        client = socket.accept();
      } catch (IOException e) {
        return; // cut
      }
      Socket server = new Socket();
      try {
        server.connect(target, 2000);
      } catch (IOException e) {
        reset(client);
        continue;
      }
      open.add(client);
      open.add(server);
      if (listener != socket) {
        // cut between accept and here: this pair must not outlive it
        reset(client);
        reset(server);
        continue;
      }
      boolean[] answered = new boolean[1];
      pump(client, server, () -> {}, "up");
      pump(
          server,
          client,
          () -> {
            if (!answered[0] && generation == acceptedIn) {
              answered[0] = true;
              answeredSinceRestore.incrementAndGet();
            }
          },
          "down");
    }
  }

  private void pump(Socket from, Socket to, Runnable onBytes, String direction) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                  awaitResumed();
                  onBytes.run();
                  out.write(buffer, 0, read);
                  out.flush();
                }
                to.shutdownOutput();
              } catch (IOException e) {
                reset(from);
                reset(to);
              } finally {
                open.remove(from);
                open.remove(to);
              }
            },
            "relay-" + port + "-" + direction);
    thread.setDaemon(true);
    thread.start();
  }

  /** Closes with an RST, as a crashed peer's kernel would answer, not an orderly FIN. */
  private static void reset(Socket socket) {
    try {
      socket.setSoLinger(true, 0);
    } catch (SocketException e) {
      // already closed
    }
    closeQuietly(socket);
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // closing is all that is asked
    }
  }
}
