package dev.bulwark.tck;

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
 * A local port relaying to a real server while open: closing it is an outage of that server for
 * whoever connects through it, without touching the shared server. Connect the code under test to
 * {@code 127.0.0.1:}{@link #port()}; {@link #close()} cuts every connection and refuses new ones,
 * {@link #open()} accepts them again on the same port.
 */
public final class OutageRelay implements AutoCloseable {

  private final InetSocketAddress target;
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private ServerSocket server;

  /** Reserves a free local port for a relay to {@code host:targetPort}; call {@link #open()}. */
  public OutageRelay(String host, int targetPort) throws IOException {
    this.target = new InetSocketAddress(host, targetPort);
    try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      this.port = probe.getLocalPort();
    }
  }

  public int port() {
    return port;
  }

  public synchronized void open() throws IOException {
    ServerSocket listening = new ServerSocket();
    listening.setReuseAddress(true);
    listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    server = listening;
    daemon("relay-accept", () -> accept(listening));
  }

  /** Stops listening and cuts every relayed connection. */
  @Override
  public synchronized void close() {
    quietly(server);
    server = null;
    sockets.forEach(OutageRelay::quietly);
    sockets.clear();
  }

  private void accept(ServerSocket listening) {
    while (!listening.isClosed()) {
      try {
        Socket client = listening.accept();
        Socket upstream = new Socket(target.getHostString(), target.getPort());
        sockets.add(client);
        sockets.add(upstream);
        daemon("relay-up", () -> pipe(client, upstream));
        daemon("relay-down", () -> pipe(upstream, client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private static void pipe(Socket from, Socket to) {
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      in.transferTo(out);
    } catch (IOException e) {
      // cut by close() or by the other side
    } finally {
      quietly(from);
      quietly(to);
    }
  }

  private static void daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.start();
  }

  private static void quietly(AutoCloseable closeable) {
    if (closeable != null) {
      try {
        closeable.close();
      } catch (Exception e) {
        // already closed
      }
    }
  }
}
