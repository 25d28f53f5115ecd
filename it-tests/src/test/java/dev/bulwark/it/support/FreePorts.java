package dev.bulwark.it.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on the loopback interface for servers the tests start. Ports are picked from a
 * range below the kernel's ephemeral range, so a Redis Cluster node's bus port ({@code port +
 * 10000}) stays valid and outgoing connections are unlikely to take them meanwhile.
 */
public final class FreePorts {

  private static final int LOW = 20_000;
  private static final int HIGH = 30_000;

  private FreePorts() {}

  /** A port nothing listens on, whose {@code port + 10000} is free as well. */
  public static int pairWithBusPort() {
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(LOW, HIGH);
      if (free(port) && free(port + 10_000)) {
        return port;
      }
    }
    throw new IllegalStateException("no free port pair found in " + LOW + ".." + HIGH);
  }

  /** A port nothing listens on. */
  public static int any() {
    return pairWithBusPort();
  }

  public static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
