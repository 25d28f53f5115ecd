package dev.bulwark.jpa;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local port that relays to a real database server while open, and can be closed (cutting every
 * relayed connection) and opened again: takes the database away from a store and brings it back
 * without touching the shared server.
 */
final class TcpRelay implements AutoCloseable {

  private final String targetHost;
  private final int targetPort;
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
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
        pipe(client, upstream);
        pipe(upstream, client);
      } catch (IOException e) {
        return;
      }
    }
  }

  private void pipe(Socket from, Socket to) {
    Thread thread =
        new Thread(
            () -> {
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
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
