package dev.bulwark.redis;

import dev.bulwark.tck.OutageRelay;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Assertions;
import org.opentest4j.TestAbortedException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Finds the Redis server the tests use, in the order docs/testing.md gives: the environment
 * variable {@value #URL_VARIABLE}; a server answering PING on 127.0.0.1:6379; a Testcontainers
 * container when a Docker engine is reachable. With none of them the tests are skipped with a
 * message naming the variable, except under {@code CI=true}, where they fail.
 */
final class TestRedisServer {

  static final String URL_VARIABLE = "BULWARK_TEST_REDIS_URL";

  private static final String LOCAL_HOST = "127.0.0.1";
  private static final int LOCAL_PORT = 6379;
  private static final int PROBE_TIMEOUT_MILLIS = 300;
  private static final String IMAGE = "redis:7.0-alpine";

  /** Resolved once per test JVM: a URL, or empty when no server was found. */
  private static Optional<String> resolved;

  private TestRedisServer() {}

  /**
   * The URL of the server to use; aborts the calling test (or, under {@code CI=true}, fails it)
   * when there is none.
   */
  static synchronized String url() {
    if (resolved == null) {
      resolved = resolve();
    }
    if (resolved.isPresent()) {
      return resolved.get();
    }
    String message =
        "No Redis server for the store-redis tests: set "
            + URL_VARIABLE
            + " (e.g. redis://127.0.0.1:6379), start one on "
            + LOCAL_HOST
            + ":"
            + LOCAL_PORT
            + ", or make a Docker engine reachable for Testcontainers";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      return Assertions.fail(message + " (CI=true: not skipping)");
    }
    throw new TestAbortedException(message);
  }

  private static Optional<String> resolve() {
    String configured = System.getenv(URL_VARIABLE);
    if (configured != null && !configured.isBlank()) {
      return Optional.of(configured.trim());
    }
    if (answersPing(LOCAL_HOST, LOCAL_PORT)) {
      return Optional.of("redis://" + LOCAL_HOST + ":" + LOCAL_PORT);
    }
    if (dockerAvailable()) {
      return Optional.of(Container.start());
    }
    return Optional.empty();
  }

  /** Whether a Redis server without authentication answers PING there. */
  /**
   * {@code url} with its host and port replaced by a local relay's, keeping scheme, user and db.
   */
  static String through(String url, OutageRelay relay) {
    URI server = URI.create(url);
    return server.getScheme()
        + "://"
        + (server.getRawUserInfo() == null ? "" : server.getRawUserInfo() + "@")
        + "127.0.0.1:"
        + relay.port()
        + (server.getRawPath() == null ? "" : server.getRawPath());
  }

  static boolean answersPing(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), PROBE_TIMEOUT_MILLIS);
      socket.setSoTimeout(PROBE_TIMEOUT_MILLIS);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] reply = new byte[7];
      int read = 0;
      while (read < reply.length) {
        int n = in.read(reply, read, reply.length - read);
        if (n < 0) {
          break;
        }
        read += n;
      }
      return new String(reply, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  /** Loaded only when Docker is there; the container lives as long as the test JVM. */
  private static final class Container {

    static String start() {
      @SuppressWarnings("resource") // stopped by Testcontainers when the JVM ends
      GenericContainer<?> redis =
          new GenericContainer<>(DockerImageName.parse(IMAGE)).withExposedPorts(LOCAL_PORT);
      redis.start();
      return "redis://" + redis.getHost() + ":" + redis.getMappedPort(LOCAL_PORT);
    }
  }
}
