package dev.bulwark.tck;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.junit.jupiter.api.Assertions;
import org.opentest4j.TestAbortedException;

/**
 * Finds the real servers the tests talk to, in the order docs/testing.md ("How tests find their
 * servers") gives:
 *
 * <ol>
 *   <li>an environment variable ({@code BULWARK_TEST_REDIS_URL}, {@code BULWARK_TEST_JDBC_URL},
 *       {@code BULWARK_TEST_MARIADB_URL}), used as given; nothing answering there fails the test,
 *       since someone asked for exactly that server;
 *   <li>a server answering on the standard local port (6379, 5432, 3306);
 *   <li>a Testcontainers container, when a Docker engine is reachable (started once per JVM);
 *   <li>otherwise the test is skipped with a message naming the variable to set &mdash; or, when
 *       the environment says {@code CI=true}, it fails, so CI never passes by skipping.
 * </ol>
 *
 * <p>Usage: {@code TestServices.Endpoint redis = TestServices.redis();} in a test or a
 * {@code @BeforeAll}; the endpoint carries a URL in the form the matching Bulwark store expects
 * ({@code redis://host:port}, {@code jdbc:postgresql://host:port/test}, {@code
 * jdbc:mariadb://host:port/test}), the user and password, and where it came from.
 */
public final class TestServices {

  private static final Logger LOG = Logger.getLogger(TestServices.class.getName());

  /** How long a local port may take to accept a connection before it counts as closed. */
  static final int CONNECT_TIMEOUT_MILLIS = 300;

  /** A kind of server the tests use. */
  public enum Service {
    REDIS(
        "Redis", "BULWARK_TEST_REDIS_URL", null, null, 6379, "redis:7.0-alpine", Map.of(), "", ""),
    POSTGRESQL(
        "PostgreSQL",
        "BULWARK_TEST_JDBC_URL",
        "BULWARK_TEST_JDBC_USER",
        "BULWARK_TEST_JDBC_PASSWORD",
        5432,
        "postgres:15-alpine",
        Map.of("POSTGRES_DB", "test", "POSTGRES_HOST_AUTH_METHOD", "trust"),
        "postgres",
        ""),
    MARIADB(
        "MariaDB",
        "BULWARK_TEST_MARIADB_URL",
        "BULWARK_TEST_MARIADB_USER",
        "BULWARK_TEST_MARIADB_PASSWORD",
        3306,
        "mariadb:10.11",
        Map.of("MARIADB_DATABASE", "test", "MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", "1"),
        "root",
        "");

    final String displayName;
    final String urlVariable;
    final String userVariable;
    final String passwordVariable;
    final int standardPort;
    final String image;
    final Map<String, String> containerEnv;
    final String defaultUser;
    final String defaultPassword;

    Service(
        String displayName,
        String urlVariable,
        String userVariable,
        String passwordVariable,
        int standardPort,
        String image,
        Map<String, String> containerEnv,
        String defaultUser,
        String defaultPassword) {
      this.displayName = displayName;
      this.urlVariable = urlVariable;
      this.userVariable = userVariable;
      this.passwordVariable = passwordVariable;
      this.standardPort = standardPort;
      this.image = image;
      this.containerEnv = containerEnv;
      this.defaultUser = defaultUser;
      this.defaultPassword = defaultPassword;
    }

    /** The environment variable that points the tests at a server of this kind. */
    public String urlVariable() {
      return urlVariable;
    }

    public int standardPort() {
      return standardPort;
    }

    /** The URL of a server of this kind on {@code host:port}, with the test database. */
    String url(String host, int port) {
      return switch (this) {
        case REDIS -> "redis://" + host + ":" + port;
        case POSTGRESQL -> "jdbc:postgresql://" + host + ":" + port + "/test";
        case MARIADB -> "jdbc:mariadb://" + host + ":" + port + "/test";
      };
    }
  }

  /** Where a resolved endpoint came from. */
  public enum Source {
    ENVIRONMENT,
    LOCAL_PORT,
    TESTCONTAINERS
  }

  /**
   * A server to talk to.
   *
   * @param service its kind
   * @param url the URL as a Bulwark store or a JDBC driver takes it
   * @param host the host part of the URL
   * @param port the port part of the URL
   * @param user the user to log in as (empty for Redis without ACL)
   * @param password the password (empty for none)
   * @param source how it was found
   */
  public record Endpoint(
      Service service,
      String url,
      String host,
      int port,
      String user,
      String password,
      Source source) {}

  /** Answers whether something accepts TCP connections on a host and port. */
  @FunctionalInterface
  interface PortProbe {
    boolean answers(String host, int port);
  }

  /** Starts a container of a service when a Docker engine is reachable. */
  interface ContainerRuntime {
    boolean available();

    /** Starts (or reuses) a container of {@code service}; returns its mapped host and port. */
    InetSocketAddress start(Service service);
  }

  private static final TestServices DEFAULT =
      new TestServices(System::getenv, TestServices::socketAnswers, new Testcontainers());

  private final Function<String, String> environment;
  private final PortProbe probe;
  private final ContainerRuntime containers;
  private final Map<Service, Endpoint> resolved = new ConcurrentHashMap<>();

  TestServices(Function<String, String> environment, PortProbe probe, ContainerRuntime containers) {
    this.environment = Objects.requireNonNull(environment);
    this.probe = Objects.requireNonNull(probe);
    this.containers = Objects.requireNonNull(containers);
  }

  /** The Redis server to test against, or the test is skipped (failed under {@code CI=true}). */
  public static Endpoint redis() {
    return DEFAULT.resolve(Service.REDIS);
  }

  /** The PostgreSQL server to test against, with database {@code test}. */
  public static Endpoint postgresql() {
    return DEFAULT.resolve(Service.POSTGRESQL);
  }

  /** The MariaDB server to test against, with database {@code test}. */
  public static Endpoint mariadb() {
    return DEFAULT.resolve(Service.MARIADB);
  }

  /** Resolves {@code service}, once per instance; later calls return the same endpoint. */
  public Endpoint resolve(Service service) {
    Endpoint known = resolved.get(service);
    if (known != null) {
      return known;
    }
    Endpoint endpoint = find(service);
    resolved.put(service, endpoint);
    LOG.info(
        () ->
            "Tests use "
                + service.displayName
                + " at "
                + endpoint.url()
                + " (from "
                + endpoint.source()
                + ")");
    return endpoint;
  }

  private Endpoint find(Service service) {
    String user = variable(service.userVariable).orElse(service.defaultUser);
    String password = variable(service.passwordVariable).orElse(service.defaultPassword);

    String configured = variable(service.urlVariable).orElse(null);
    if (configured != null) {
      URI uri = parse(service, configured);
      int port = uri.getPort() > 0 ? uri.getPort() : service.standardPort;
      if (!probe.answers(uri.getHost(), port)) {
        return Assertions.fail(
            service.urlVariable
                + "="
                + configured
                + " is set, but nothing answers at "
                + uri.getHost()
                + ":"
                + port);
      }
      return new Endpoint(
          service, configured, uri.getHost(), port, user, password, Source.ENVIRONMENT);
    }

    String localHost = "127.0.0.1";
    if (probe.answers(localHost, service.standardPort)) {
      return new Endpoint(
          service,
          service.url(localHost, service.standardPort),
          localHost,
          service.standardPort,
          user,
          password,
          Source.LOCAL_PORT);
    }

    if (containers.available()) {
      InetSocketAddress mapped = containers.start(service);
      String host = mapped.getHostString();
      return new Endpoint(
          service,
          service.url(host, mapped.getPort()),
          host,
          mapped.getPort(),
          service.defaultUser,
          service.defaultPassword,
          Source.TESTCONTAINERS);
    }

    String message =
        "No "
            + service.displayName
            + " server for this test: set "
            + service.urlVariable
            + " (for example "
            + service.url("host", service.standardPort)
            + "), start one on 127.0.0.1:"
            + service.standardPort
            + ", or make a Docker engine reachable for Testcontainers";
    if ("true".equalsIgnoreCase(variable("CI").orElse(""))) {
      return Assertions.fail(message + " (CI=true: failing instead of skipping)");
    }
    throw new TestAbortedException(message);
  }

  private Optional<String> variable(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String value = environment.apply(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  /** Parses a redis:// or jdbc: URL far enough to know its host and port. */
  static URI parse(Service service, String url) {
    String plain = url.startsWith("jdbc:") ? url.substring("jdbc:".length()) : url;
    URI uri;
    try {
      uri = URI.create(plain);
    } catch (IllegalArgumentException e) {
      return Assertions.fail(service.urlVariable + "=" + url + " is not a URL: " + e.getMessage());
    }
    if (uri.getHost() == null) {
      return Assertions.fail(service.urlVariable + "=" + url + " names no host");
    }
    return uri;
  }

  /** Whether something accepts a TCP connection on {@code host:port} within the timeout. */
  static boolean socketAnswers(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Testcontainers, touched only when neither a variable nor a local server is there; any failure
   * to reach Docker counts as "no Docker", never as a build failure.
   */
  static final class Testcontainers implements ContainerRuntime {

    private final Map<Service, InetSocketAddress> started = new ConcurrentHashMap<>();
    private volatile Boolean available;

    @Override
    public boolean available() {
      Boolean known = available;
      if (known == null) {
        known = probeDocker(Testcontainers::dockerAvailable);
        available = known;
      }
      return known;
    }

    static boolean probeDocker(Supplier<Boolean> check) {
      try {
        return Boolean.TRUE.equals(check.get());
      } catch (RuntimeException | LinkageError e) {
        return false;
      }
    }

    private static Boolean dockerAvailable() {
      return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
    }

    @Override
    public InetSocketAddress start(Service service) {
      return started.computeIfAbsent(service, Testcontainers::startContainer);
    }

    @SuppressWarnings("resource") // lives as long as the JVM; Testcontainers' reaper removes it
    private static InetSocketAddress startContainer(Service service) {
      org.testcontainers.containers.GenericContainer<?> container =
          new org.testcontainers.containers.GenericContainer<>(
                  org.testcontainers.utility.DockerImageName.parse(service.image))
              .withExposedPorts(service.standardPort)
              .withEnv(service.containerEnv)
              .waitingFor(
                  service == Service.POSTGRESQL
                      // the image's init server listens on a socket only, then restarts
                      ? org.testcontainers.containers.wait.strategy.Wait.forLogMessage(
                          ".*ready to accept connections.*\\n", 2)
                      : org.testcontainers.containers.wait.strategy.Wait.forListeningPort());
      container.start();
      return InetSocketAddress.createUnresolved(
          container.getHost(), container.getMappedPort(service.standardPort));
    }
  }
}
