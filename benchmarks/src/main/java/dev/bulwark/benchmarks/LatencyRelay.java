package dev.bulwark.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP relay on the loopback that holds every chunk it forwards, in each direction, for a set
 * time: a server that is a real round trip away (production Redis is another host, 0.2 to 1 ms
 * off), where the kernel here has no {@code netem}. Each direction of each connection keeps its
 * bytes in order; a chunk read while another is held is held for its own full delay, not queued
 * behind.
 *
 * <pre>
 * java -cp benchmarks.jar dev.bulwark.benchmarks.LatencyRelay 127.0.0.1:6379 16379 450us
 * BULWARK_BENCH_REDIS_URL=redis://127.0.0.1:16379 java -jar benchmarks.jar RedisBenchmark
 * </pre>
 *
 * It runs until killed.
 */
public final class LatencyRelay implements AutoCloseable {

  private final InetSocketAddress target;
  private final long delayNanos;
  private final ServerSocket server;

  public LatencyRelay(InetSocketAddress target, int port, long delayNanos) throws IOException {
    this.target = target;
    this.delayNanos = delayNanos;
    this.server = new ServerSocket(port, 128, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "latency-relay-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return server.getLocalPort();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(target.getAddress(), target.getPort());
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        pipe(client, upstream, "up");
        pipe(upstream, client, "down");
      } catch (IOException e) {
        if (!server.isClosed()) {
          System.err.println("latency relay: " + e);
        }
      }
    }
  }

  /** One direction: a reader that stamps each chunk, a writer that sends it once it is due. */
  private void pipe(Socket from, Socket to, String direction) throws IOException {
    InputStream in = from.getInputStream();
    OutputStream out = to.getOutputStream();
    LinkedBlockingQueue<Chunk> held = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              byte[] buffer = new byte[64 * 1024];
              try {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  held.add(new Chunk(System.nanoTime() + delayNanos, Arrays.copyOf(buffer, n)));
                }
              } catch (IOException ignored) {
                // the connection closed
              }
              held.add(Chunk.END);
            },
            "latency-relay-" + direction + "-read");
    Thread writer =
        new Thread(
            () -> {
              try {
                while (true) {
                  Chunk chunk = held.take();
                  if (chunk == Chunk.END) {
                    break;
                  }
                  long wait;
                  while ((wait = chunk.dueNanos() - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                  }
                  out.write(chunk.bytes());
                  out.flush();
                }
              } catch (IOException | InterruptedException ignored) {
                // the connection closed
              }
              closeQuietly(from);
              closeQuietly(to);
            },
            "latency-relay-" + direction + "-write");
    reader.setDaemon(true);
    writer.setDaemon(true);
    reader.start();
    writer.start();
  }

  private record Chunk(long dueNanos, byte[] bytes) {
    static final Chunk END = new Chunk(0, new byte[0]);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }

  /** {@code host:port listenPort delay}, the delay as {@code 450us}, {@code 1ms} or nanoseconds. */
  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: LatencyRelay <host:port> <listen port> <delay per direction>");
      System.exit(2);
    }
    String[] hostPort = args[0].split(":");
    long delay = parseDelay(args[2]);
    try (LatencyRelay relay =
        new LatencyRelay(
            new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])),
            Integer.parseInt(args[1]),
            delay)) {
      System.out.printf(
          "latency relay: 127.0.0.1:%d -> %s, %d us each way%n",
          relay.port(), args[0], TimeUnit.NANOSECONDS.toMicros(delay));
      Thread.currentThread().join(); // until killed
    }
  }

  static long parseDelay(String text) {
    if (text.endsWith("us")) {
      return TimeUnit.MICROSECONDS.toNanos(Long.parseLong(text.substring(0, text.length() - 2)));
    }
    if (text.endsWith("ms")) {
      return TimeUnit.MILLISECONDS.toNanos(Long.parseLong(text.substring(0, text.length() - 2)));
    }
    return Long.parseLong(text);
  }
}
