package dev.bulwark.it.payara;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.bulwark.it.payara.app.BulkheadFullMapper;
import dev.bulwark.it.payara.app.BulwarkApplication;
import dev.bulwark.it.payara.app.Gate;
import dev.bulwark.it.payara.app.Gates;
import dev.bulwark.it.payara.app.GuardedResource;
import dev.bulwark.it.payara.app.GuardedService;
import dev.bulwark.it.payara.app.RateLimitMapper;
import dev.bulwark.it.payara.app.TransactionalResource;
import dev.bulwark.it.payara.app.TransactionalService;
import dev.bulwark.jpa.JpaStore;
import dev.bulwark.tck.TestServices;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.opentest4j.TestAbortedException;

/**
 * Bulwark's JPA store on Payara Micro: a WAR whose JDBC resource ({@code <data-source>} in its
 * {@code web.xml}) points at PostgreSQL, and {@code bulwark.store=jpa} with {@code
 * bulwark.jpa.datasource} naming it. The store runs on Payara's own JPA provider (EclipseLink). The
 * bulkhead holds over HTTP and its permits are rows of the store's tables while the calls run.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PayaraJpaTest {

  static final String WAR = "bulwark-payara-jpa";
  static final String DATA_SOURCE = "java:app/jdbc/bulwark";
  static final String SCHEMA = "bulwark_payara_" + ProcessHandle.current().pid();
  static final String BULKHEAD = GuardedService.class.getName() + "#bulkhead";

  static MicroServer server;
  static HttpClient client;
  static TestServices.Endpoint postgres;
  static TestAbortedException unavailable;

  @BeforeAll
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  static void deploy() throws Exception {
    Path jar;
    try {
      jar = MicroServer.jar();
      postgres = TestServices.postgresql();
    } catch (TestAbortedException e) {
      unavailable = e;
      return;
    }
    execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
    WebArchive war =
        BulwarkWar.create(
                WAR,
                Map.of(
                    "bulwark.store", "jpa",
                    "bulwark.jpa.datasource", DATA_SOURCE,
                    "bulwark.jpa.schema-generation", "create"),
                BulwarkApplication.class,
                GuardedResource.class,
                GuardedService.class,
                Gates.class,
                Gate.class,
                BulkheadFullMapper.class,
                RateLimitMapper.class,
                TransactionalResource.class,
                TransactionalService.class)
            .addAsLibraries(
                BulwarkWar.library("bulwark-jpa", JpaStore.class),
                BulwarkWar.library("HikariCP", HikariDataSource.class),
                BulwarkWar.library("postgresql", org.postgresql.Driver.class))
            .addAsWebInfResource(new StringAsset(webXml()), "web.xml");
    Path file = BulwarkWar.export(war, PayaraMicroTest.workDirectory());
    client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    server = MicroServer.start(jar, file, "jpa");
    server.awaitBoot(PayaraMicroTest.BOOT);
    server.awaitAnswer(client, "api/ping", PayaraMicroTest.WAIT);
  }

  @BeforeEach
  void requireServers() {
    if (unavailable != null) {
      throw unavailable;
    }
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (server != null) {
        server.close();
      }
    } finally {
      if (postgres != null) {
        execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
      }
    }
  }

  @Test
  void theBulkheadOfTwoHoldsOverHttpAndItsPermitsAreRowsInPostgres() throws Exception {
    String gate = "jpa-bulkhead";
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    int heldWhileInside;
    List<Integer> rejected;
    try {
      for (int i = 0; i < 5; i++) {
        calls.add(send("GET", "api/bulkhead/" + gate + "/" + i));
      }
      awaitAnswered(calls, 3);
      awaitEntered(gate, 2);
      rejected =
          calls.stream().filter(CompletableFuture::isDone).map(c -> c.join().statusCode()).toList();
      heldWhileInside = heldPermits(BULKHEAD);
    } finally {
      send("POST", "api/gates/" + gate + "/open").get(20, TimeUnit.SECONDS);
    }
    awaitAnswered(calls, 5);

    assertThat(rejected).as("answered while two calls are inside").containsExactly(503, 503, 503);
    assertThat(heldWhileInside).as("held claim rows while two calls are inside").isEqualTo(2);
    assertThat(calls.stream().map(c -> c.join().statusCode()))
        .containsExactlyInAnyOrder(200, 200, 503, 503, 503);
    assertThat(heldPermits(BULKHEAD)).as("held claim rows after the calls").isZero();
    assertThat(server.log())
        .contains("store 'jpa'")
        .doesNotContain("cannot be resumed")
        .doesNotContain("cannot be suspended");
  }

  @Test
  void aCallWhoseTransactionRollsBackReleasesItsPermitAndNeverHidItsGrant() throws Exception {
    String gate = "jpa-transactional";
    CompletableFuture<HttpResponse<String>> first = send("GET", "api/transactional/" + gate + "/1");
    int heldInside;
    try {
      awaitEntered(gate, 1);
      heldInside = heldPermits(TransactionalService.BULKHEAD);
    } finally {
      send("POST", "api/gates/" + gate + "/open").get(20, TimeUnit.SECONDS);
    }
    HttpResponse<String> failed = first.get(20, TimeUnit.SECONDS);

    assertThat(heldInside)
        .as("the grant, committed while the caller's transaction was still open")
        .isEqualTo(1);
    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(failed.body()).contains("call 1 fails");
    assertThat(heldPermits(TransactionalService.BULKHEAD))
        .as("held claim rows after the caller's rollback")
        .isZero();
    // the single permit is free: the next call gets it (and fails in its method, not with 503)
    HttpResponse<String> second =
        send("GET", "api/transactional/" + gate + "/2").get(20, TimeUnit.SECONDS);
    assertThat(second.statusCode()).isEqualTo(500);
    assertThat(second.body()).contains("call 2 fails");
    assertThat(heldPermits(TransactionalService.BULKHEAD)).isZero();
  }

  private static String webXml() {
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
          <data-source>
            <name>%s</name>
            <class-name>org.postgresql.ds.PGSimpleDataSource</class-name>
            <server-name>%s</server-name>
            <port-number>%d</port-number>
            <database-name>test</database-name>
            <user>%s</user>
            <password>%s</password>
            <property><name>currentSchema</name><value>%s</value></property>
          </data-source>
        </web-app>
        """
        .formatted(
            DATA_SOURCE,
            postgres.host(),
            postgres.port(),
            postgres.user(),
            // Payara refuses a pool without a password; a server that trusts the host ignores it
            postgres.password().isEmpty() ? "unused" : postgres.password(),
            SCHEMA);
  }

  private static CompletableFuture<HttpResponse<String>> send(String method, String path) {
    return client.sendAsync(
        HttpRequest.newBuilder(server.uri(path))
            .timeout(Duration.ofSeconds(40))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void awaitAnswered(List<CompletableFuture<HttpResponse<String>>> calls, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + PayaraMicroTest.WAIT.toNanos();
    while (calls.stream().filter(CompletableFuture::isDone).count() < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "only "
                + calls.stream().filter(CompletableFuture::isDone).count()
                + " of "
                + calls.size()
                + " calls answered, expected "
                + count
                + ":\n"
                + server.tail());
      }
      Thread.sleep(20);
    }
  }

  /** Polls the gate's record until {@code count} calls entered the method. */
  private static void awaitEntered(String gate, int count) throws Exception {
    long deadline = System.nanoTime() + PayaraMicroTest.WAIT.toNanos();
    String record = "";
    while (!record.startsWith("entered=" + count + ",")) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("gate " + gate + " never had " + count + " calls: " + record);
      }
      Thread.sleep(20);
      record = send("GET", "api/gates/" + gate).get(20, TimeUnit.SECONDS).body();
    }
  }

  private static int heldPermits(String name) throws SQLException {
    try (Connection connection = connect();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT COUNT(*) FROM bulwark_claim c JOIN bulwark_limit l ON c.limit_id = l.id"
                    + " WHERE l.kind = 'P' AND l.name = ? AND c.held = TRUE")) {
      query.setString(1, name);
      try (ResultSet count = query.executeQuery()) {
        count.next();
        return count.getInt(1);
      }
    }
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection(
        postgres.url() + "?currentSchema=" + SCHEMA, postgres.user(), postgres.password());
  }

  private static void execute(String sql) throws SQLException {
    try (Connection connection =
            DriverManager.getConnection(postgres.url(), postgres.user(), postgres.password());
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
