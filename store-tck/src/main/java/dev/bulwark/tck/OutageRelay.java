package dev.bulwark.tck;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A local port relaying to a real server while open: closing it is an outage of that server for
 * whoever connects through it, without touching the shared server. Connect the code under test to
 * {@code 127.0.0.1:}{@link #port()}; {@link #close()} cuts every connection and refuses new ones,
 * {@link #open()} accepts them again on the same port. It can also lose one reply: the command
 * reaches the server and runs, the client sees its connection cut. And it can turn into a black
 * hole: connections stay open but nothing passes either way, as when a network path dies without
 * either end being told (a half-open connection). Finally it can hold back one request, as a slow
 * network path would: the client's bytes reach the server only when the test delivers them, even
 * after the client gave up and closed that connection, while other connections pass. Or it can
 * silence only the connections it relays so far ({@link #silenceConnections()}): they stay open and
 * pass nothing, as a connection a firewall dropped without a word, while new connections relay.
 */
public final class OutageRelay implements AutoCloseable {

  private final InetSocketAddress target;
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicBoolean dropNextReply = new AtomicBoolean();
  private volatile boolean blackHole;
  private final List<AtomicBoolean> silenced = new CopyOnWriteArrayList<>();
  private final AtomicBoolean holdNextRequest = new AtomicBoolean();
  private volatile Held held;

  /** Bytes of one connection held back on their way to the server, and whether it answered. */
  private static final class Held {
    final Socket upstream;
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final CountDownLatch answered = new CountDownLatch(1);
    boolean delivered;

    Held(Socket upstream) {
      this.upstream = upstream;
    }
  }

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
    daemon("relay-accept-" + port, () -> accept(listening));
  }

  /**
   * The server's reply to the next script call ({@code EVALSHA}, {@code EVAL}) on any relayed
   * connection is dropped and that connection is cut, as a network failure after the command was
   * delivered would. Other replies (a subscription's PING answer) pass, so they cannot be the one
   * dropped instead.
   */
  public void dropNextReply() {
    dropNextReply.set(true);
  }

  /** Whether an armed {@link #dropNextReply()} has not happened yet. */
  public boolean replyDropPending() {
    return dropNextReply.get();
  }

  /**
   * From now on, bytes that reach the relay in either direction are dropped, on open connections
   * and new ones, and no connection is closed: neither side hears anything again.
   */
  public void stopForwarding() {
    blackHole = true;
  }

  /** Forwards again what arrives from now on (what was dropped meanwhile stays lost). */
  public void resumeForwarding() {
    blackHole = false;
  }

  /**
   * The next script call ({@code EVALSHA}, {@code EVAL}) a client sends on any relayed connection,
   * and every later byte of that connection, are held back until {@link #deliverHeldRequest}; the
   * server sees nothing of them, and the connection to the server stays open when the client closes
   * its side. Other commands (a subscription's PING, a pool's validation) pass, so they cannot be
   * the one held instead.
   */
  public void holdNextRequest() {
    holdNextRequest.set(true);
  }

  /** Whether bytes are being held back now. */
  public boolean requestHeld() {
    Held now = held;
    return now != null && !now.delivered;
  }

  /**
   * Sends the held bytes to the server and waits up to {@code timeout} for its answer (which
   * reaches the client only if it is still connected).
   *
   * @return whether the server answered in time
   */
  public boolean deliverHeldRequest(long timeout, TimeUnit unit)
      throws IOException, InterruptedException {
    Held now = held;
    if (now == null) {
      throw new IllegalStateException("no request is held");
    }
    synchronized (now) {
      now.delivered = true;
      OutputStream out;
      try {
        out = now.upstream.getOutputStream();
      } catch (IOException closed) {
        // nothing of it went up this connection: send it on one of its own
        return deliverAlone(now.bytes.toByteArray(), unit.toMillis(timeout));
      }
      // once written it may run at once, and its answer, finding the client gone, close this
      // connection under us: a failure from here on is not a reason to send it a second time
      try {
        out.write(now.bytes.toByteArray());
        out.flush();
      } catch (IOException cutWhileSending) {
        // whether it reached the server shows in its answer, awaited below
      }
    }
    return now.answered.await(timeout, unit);
  }

  /**
   * The held request's own connection to the server is gone (its client gave up, and the relay's
   * other direction may end with it): the request still reaches the server, late, on a connection
   * of its own, as one the network had buffered would; what runs on the server is the same.
   */
  private boolean deliverAlone(byte[] request, long timeoutMillis) throws IOException {
    try (Socket alone = new Socket(target.getHostString(), target.getPort())) {
      alone.setSoTimeout((int) Math.max(1, timeoutMillis));
      alone.getOutputStream().write(request);
      alone.getOutputStream().flush();
      try {
        return alone.getInputStream().read() >= 0;
      } catch (SocketTimeoutException e) {
        return false;
      }
    }
  }

  /**
   * Every connection relayed until now passes no more bytes either way and is never closed by the
   * relay: its ends see nothing until a timeout of their own.
   */
  public void silenceConnections() {
    silenced.forEach(connection -> connection.set(true));
  }

  /** Stops listening and cuts every relayed connection. */
  @Override
  public synchronized void close() {
    quietly(server);
    server = null;
    sockets.forEach(OutageRelay::quietly);
    sockets.clear();
    silenced.clear();
  }

  private void accept(ServerSocket listening) {
    while (!listening.isClosed()) {
      Socket client;
      try {
        client = listening.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (!keep(listening, client)) {
        return;
      }
      try {
        Socket upstream = new Socket(target.getHostString(), target.getPort());
        if (!keep(listening, upstream)) {
          return;
        }
        AtomicBoolean silent = new AtomicBoolean();
        silenced.add(silent);
        AtomicBoolean scriptSent = new AtomicBoolean();
        daemon("relay-up-" + port, () -> pipe(client, upstream, false, silent, scriptSent));
        daemon("relay-down-" + port, () -> pipe(upstream, client, true, silent, scriptSent));
      } catch (IOException e) {
        quietly(client); // the server itself is down: so is this connection
      }
    }
  }

  /**
   * Registers a socket for {@link #close()} to cut, unless the relay closed meanwhile: a connection
   * still in the listening backlog when the relay closes is accepted afterwards and must not
   * outlive the outage.
   */
  private synchronized boolean keep(ServerSocket listening, Socket socket) {
    if (server != listening) {
      quietly(socket);
      return false;
    }
    sockets.add(socket);
    return true;
  }

  /**
   * @param scriptSent shared by a connection's two pipes: set when a script call went up, cleared
   *     by the reply that came down after it, so that an armed {@link #dropNextReply()} drops a
   *     script's reply, not a subscription's PING answer on another connection
   */
  private void pipe(
      Socket from, Socket to, boolean replies, AtomicBoolean silent, AtomicBoolean scriptSent) {
    Held holding = null;
    // the streams are not closed here: closing one closes its socket, which a held request keeps
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      byte[] buffer = new byte[8192];
      int read;
      while ((read = in.read(buffer)) >= 0) {
        if (blackHole || silent.get()) {
          continue; // swallowed
        }
        if (replies) {
          Held now = held;
          if (now != null && now.upstream == from && now.delivered) {
            now.answered.countDown();
          }
        } else if (holding == null
            && holdNextRequest.get()
            && read > 0
            && buffer[0] == '*'
            && scriptCall(buffer, read)
            && holdNextRequest.compareAndSet(true, false)) {
          holding = new Held(to);
          held = holding;
        }
        if (holding != null) {
          synchronized (holding) {
            if (!holding.delivered) {
              holding.bytes.write(buffer, 0, read);
              continue;
            }
          }
        }
        if (!replies && read > 0 && buffer[0] == '*' && scriptCall(buffer, read)) {
          scriptSent.set(true);
        }
        if (replies
            && scriptSent.compareAndSet(true, false)
            && dropNextReply.compareAndSet(true, false)) {
          return; // the finally block cuts both sides
        }
        out.write(buffer, 0, read);
        out.flush();
      }
    } catch (IOException e) {
      // cut by close() or by the other side
    } finally {
      quietly(from);
      if (holding == null) {
        quietly(to); // a held request keeps its server side open: it is still on its way there
      }
    }
  }

  /** Whether these bytes, as RESP sends a command, call a script. */
  private static boolean scriptCall(byte[] buffer, int length) {
    String command = new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
    return command.toUpperCase(Locale.ROOT).contains("EVAL");
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
