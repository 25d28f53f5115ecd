package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.tck.TestServices.ContainerRuntime;
import dev.bulwark.tck.TestServices.Endpoint;
import dev.bulwark.tck.TestServices.Service;
import dev.bulwark.tck.TestServices.Source;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The resolution order of {@link TestServices}, against the real local servers and fakes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TestServicesTest {

  /** Records whether it was asked, and starts nothing. */
  private static final class FakeContainers implements ContainerRuntime {
    final boolean docker;
    final List<Service> started = new ArrayList<>();

    FakeContainers(boolean docker) {
      this.docker = docker;
    }

    @Override
    public boolean available() {
      return docker;
    }

    @Override
    public InetSocketAddress start(Service service) {
      started.add(service);
      return InetSocketAddress.createUnresolved("docker-host", 40000 + service.standardPort());
    }
  }

  @Test
  void resolvesTheLocalRedisOnItsStandardPort() {
    assumeLocalServer(6379, "Redis");
    Endpoint redis =
        new TestServices(name -> null, TestServices::socketAnswers, noDocker())
            .resolve(Service.REDIS);

    assertThat(redis.source()).isEqualTo(Source.LOCAL_PORT);
    assertThat(redis.url()).isEqualTo("redis://127.0.0.1:6379");
    assertThat(TestServices.socketAnswers(redis.host(), redis.port())).isTrue();
  }

  @Test
  void resolvesTheLocalPostgresqlOnItsStandardPort() {
    assumeLocalServer(5432, "PostgreSQL");
    Endpoint postgres =
        new TestServices(name -> null, TestServices::socketAnswers, noDocker())
            .resolve(Service.POSTGRESQL);

    assertThat(postgres.source()).isEqualTo(Source.LOCAL_PORT);
    assertThat(postgres.url()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/test");
    assertThat(postgres.user()).isEqualTo("postgres");
    assertThat(TestServices.socketAnswers(postgres.host(), postgres.port())).isTrue();
  }

  @Test
  void theStaticEntryPointsFindTheSameServers() {
    // whatever the environment of this run says, the endpoint must answer
    Endpoint redis = TestServices.redis();
    Endpoint postgres = TestServices.postgresql();

    assertThat(TestServices.socketAnswers(redis.host(), redis.port())).isTrue();
    assertThat(TestServices.socketAnswers(postgres.host(), postgres.port())).isTrue();
    assertThat(TestServices.redis()).isSameAs(redis);
  }

  @Test
  void theEnvironmentVariableWinsOverTheLocalPort() throws IOException {
    try (ServerSocket other = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      String url = "redis://127.0.0.1:" + other.getLocalPort();
      Map<String, String> env = Map.of("BULWARK_TEST_REDIS_URL", url);
      FakeContainers docker = new FakeContainers(true);

      Endpoint redis =
          new TestServices(env::get, TestServices::socketAnswers, docker).resolve(Service.REDIS);

      assertThat(redis.source()).isEqualTo(Source.ENVIRONMENT);
      assertThat(redis.url()).isEqualTo(url);
      assertThat(redis.port()).isEqualTo(other.getLocalPort());
      assertThat(docker.started).isEmpty();
    }
  }

  @Test
  void aJdbcVariableCarriesItsUserAndPassword() {
    Map<String, String> env =
        Map.of(
            "BULWARK_TEST_JDBC_URL", "jdbc:postgresql://db.example:6543/other",
            "BULWARK_TEST_JDBC_USER", "app",
            "BULWARK_TEST_JDBC_PASSWORD", "secret");
    List<String> probed = new ArrayList<>();

    Endpoint postgres =
        new TestServices(
                env::get,
                (host, port) -> {
                  probed.add(host + ":" + port);
                  return true;
                },
                noDocker())
            .resolve(Service.POSTGRESQL);

    assertThat(probed).containsExactly("db.example:6543");
    assertThat(postgres)
        .isEqualTo(
            new Endpoint(
                Service.POSTGRESQL,
                "jdbc:postgresql://db.example:6543/other",
                "db.example",
                6543,
                "app",
                "secret",
                Source.ENVIRONMENT));
  }

  @Test
  void aVariablePointingAtNothingFailsRatherThanFallingBack() {
    Map<String, String> env = Map.of("BULWARK_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:1/x");

    assertThatThrownBy(
            () ->
                new TestServices(env::get, (host, port) -> port != 1, new FakeContainers(true))
                    .resolve(Service.MARIADB))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("BULWARK_TEST_MARIADB_URL")
        .hasMessageContaining("127.0.0.1:1");
  }

  @Test
  void testcontainersComesAfterTheLocalPort() {
    FakeContainers docker = new FakeContainers(true);

    Endpoint mariadb =
        new TestServices(name -> null, (host, port) -> false, docker).resolve(Service.MARIADB);

    assertThat(docker.started).containsExactly(Service.MARIADB);
    assertThat(mariadb.source()).isEqualTo(Source.TESTCONTAINERS);
    assertThat(mariadb.url()).isEqualTo("jdbc:mariadb://docker-host:43306/test");
  }

  @Test
  void nothingFoundSkipsNamingTheVariable() {
    FakeContainers noDocker = noDocker();

    assertThatThrownBy(
            () ->
                new TestServices(name -> null, (host, port) -> false, noDocker)
                    .resolve(Service.REDIS))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("BULWARK_TEST_REDIS_URL");
    assertThat(noDocker.started).isEmpty();
  }

  @Test
  void nothingFoundUnderCiFails() {
    Map<String, String> env = new HashMap<>();
    env.put("CI", "true");

    assertThatThrownBy(
            () ->
                new TestServices(env::get, (host, port) -> false, noDocker())
                    .resolve(Service.POSTGRESQL))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("BULWARK_TEST_JDBC_URL");
  }

  @Test
  void aClosedPortIsReportedQuickly() throws IOException {
    int free;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      free = socket.getLocalPort();
    }
    long start = System.nanoTime();

    assertThat(TestServices.socketAnswers("127.0.0.1", free)).isFalse();
    assertThat(System.nanoTime() - start)
        .isLessThan(TimeUnit.MILLISECONDS.toNanos(TestServices.CONNECT_TIMEOUT_MILLIS + 1000L));
  }

  @Test
  void aBrokenDockerProbeMeansNoDocker() {
    assertThat(
            TestServices.Testcontainers.probeDocker(
                () -> {
                  throw new IllegalStateException("no docker socket");
                }))
        .isFalse();
    assertThat(
            TestServices.Testcontainers.probeDocker(
                () -> {
                  throw new NoClassDefFoundError("org/testcontainers/DockerClientFactory");
                }))
        .isFalse();
    assertThat(TestServices.Testcontainers.probeDocker(() -> true)).isTrue();
  }

  /** The machines of this project run the servers locally; elsewhere, skip (never on CI). */
  private static void assumeLocalServer(int port, String what) {
    if (!"true".equalsIgnoreCase(System.getenv("CI"))) {
      Assumptions.assumeTrue(
          TestServices.socketAnswers("127.0.0.1", port), "no " + what + " on 127.0.0.1:" + port);
    }
  }

  private static FakeContainers noDocker() {
    return new FakeContainers(false);
  }
}
