package dev.bulwark.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A port that can be closed and opened again, relaying to a real server while open: lets a test
 * take "Redis" away from a store and bring it back without touching the shared server. It can also
 * lose one reply: the command reaches the server and runs, the client sees its connection cut.
 */
final class TcpRelay implements AutoCloseable {

  private final String targetHost;
  private final int targetPort;
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicBoolean dropNextReply = new AtomicBoolean();
  private volatile ServerSocket server;

  /** Reserves a free local port; nothing listens there until {@link #open()}. */
  TcpRelay(String targetHost, int targetPort) throws IOException {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      this.port = probe.getLocalPort();
    }
  }

  int port() {
    return port;
  }

  synchronized void open() throws IOException {
    ServerSocket listening = new ServerSocket();
    listening.setReuseAddress(true);
    listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    server = listening;
    Thread acceptor = new Thread(() -> accept(listening), "relay-accept-" + port);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /**
   * The next bytes the server sends on any relayed connection are dropped and that connection is
   * cut, as a network failure after the command was delivered would.
   */
  void dropNextReply() {
    dropNextReply.set(true);
  }

  /** Whether an armed {@link #dropNextReply()} has not happened yet. */
  boolean replyDropPending() {
    return dropNextReply.get();
  }

  /** Stops listening and cuts every relayed connection. */
  @Override
  public synchronized void close() {
    ServerSocket listening = server;
    server = null;
    closeQuietly(listening);
    for (Socket socket : sockets) {
      closeQuietly(socket);
    }
    sockets.clear();
  }

  private void accept(ServerSocket listening) {
    while (!listening.isClosed()) {
      try {
        Socket client = listening.accept();
        Socket upstream = new Socket(targetHost, targetPort);
        sockets.add(client);
        sockets.add(upstream);
        pipe(client, upstream, false);
        pipe(upstream, client, true);
      } catch (IOException e) {
        return;
      }
    }
  }

  private void pipe(Socket from, Socket to, boolean replies) {
    Thread thread =
        new Thread(
            () -> {
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                byte[] buffer = new byte[8192];
                int read;
                while ((read = in.read(buffer)) >= 0) {
                  if (replies && dropNextReply.compareAndSet(true, false)) {
                    return; // the finally block cuts both sides
                  }
                  out.write(buffer, 0, read);
                  out.flush();
                }
              } catch (IOException e) {
                // the other side or close() ended it
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "relay-pipe-" + port);
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(AutoCloseable closeable) {
    if (closeable != null) {
      try {
        closeable.close();
      } catch (Exception e) {
        // already closed
      }
    }
  }
}
