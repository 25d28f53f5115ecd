package dev.bulwark.it.payara;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.it.payara.app.BulwarkApplication;
import dev.bulwark.it.payara.app.Gate;
import dev.bulwark.it.payara.app.Gates;
import dev.bulwark.it.payara.app.GuardedResource;
import dev.bulwark.it.payara.app.GuardedService;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.opentest4j.TestAbortedException;

/**
 * Bulwark deployed on Payara Micro 6 (Weld 5.1.6, Interceptors 2.1, Payara's own MicroProfile
 * Config and Fault Tolerance, Jersey) in a WAR, exercised through HTTP. The WAR maps no exception:
 * Jersey finds bulwark-cdi's HTTP answers in {@code WEB-INF/lib} by itself. One Payara process
 * serves every test here; each test uses its own gate, so their records do not mix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PayaraMicroTest {

  static final String WAR = "bulwark-payara";
  static final Duration BOOT = Duration.ofSeconds(120);
  static final Duration WAIT = Duration.ofSeconds(20);

  static MicroServer server;
  static HttpClient client;

  /** Why there is no Payara Micro to test on; each test reports it as its skip reason. */
  static TestAbortedException unavailable;

  @BeforeAll
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  static void deploy() throws Exception {
    Path jar;
    try {
      jar = MicroServer.jar();
    } catch (TestAbortedException e) {
      // aborting here would skip the class without a trace in the test counts
      unavailable = e;
      return;
    }
    WebArchive war =
        BulwarkWar.create(
            WAR,
            Map.of("bulwark.bulkhead." + GuardedService.CONFIGURED + ".value", "2"),
            BulwarkApplication.class,
            GuardedResource.class,
            GuardedService.class,
            Gates.class,
            Gate.class);
    Path file = BulwarkWar.export(war, workDirectory());
    client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    server = MicroServer.start(jar, file, "behaviour");
    long bootMillis = server.awaitBoot(BOOT);
    server.awaitAnswer(client, "api/ping", WAIT);
    System.out.printf(
        "Payara Micro on 127.0.0.1:%d: booted in %d ms (its own count), answering after %d ms;"
            + " log %s%n",
        server.port(), bootMillis, server.sinceStart().toMillis(), server.logFile());
  }

  @BeforeEach
  void requirePayara() {
    if (unavailable != null) {
      throw unavailable;
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void bulkheadOfTwoLetsTwoOfFiveConcurrentCallsInAndRejectsThreeAtOnce() throws Exception {
    String gate = "bulkhead";
    List<Call> calls = new ArrayList<>();
    List<Call> rejected;
    try {
      IntStream.range(0, 5).forEach(i -> calls.add(call("GET", "api/bulkhead/" + gate + "/" + i)));

      awaitDone(calls, 3, gate);
      Record inside = awaitRecord(gate, r -> r.entered() == 2);
      rejected = calls.stream().filter(Call::isDone).toList();

      assertThat(rejected)
          .as("calls answered while two are held inside")
          .hasSize(3)
          .allSatisfy(
              c -> {
                assertThat(c.response().statusCode()).isEqualTo(503);
                assertThat(c.response().headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
                assertThat(c.response().body())
                    .contains("\"type\":\"tag:bulwark.dev,2025:problem:bulkhead-full\"")
                    .contains("\"status\":503")
                    .contains("\"limit\":\"" + GuardedService.class.getName() + "#bulkhead\"");
              });
      assertThat(inside.inside()).isEqualTo(2);
      report("bulkhead rejections", rejected);
    } finally {
      open(gate);
    }
    awaitDone(calls, 5, gate);
    List<Call> admitted = calls.stream().filter(c -> !rejected.contains(c)).toList();
    assertThat(admitted)
        .hasSize(2)
        .allSatisfy(
            c -> {
              assertThat(c.response().statusCode()).isEqualTo(200);
              assertThat(c.response().body()).isEqualTo("ran " + c.id());
            });
    Record record = record(gate);
    assertThat(record.max()).as("max concurrency recorded inside the method").isEqualTo(2);
    assertThat(record.entered()).isEqualTo(2);
    assertThat(record.inside()).isZero();
    System.out.println("bulkhead record: " + record);
  }

  @Test
  void aNamedKeyInTheWarsMicroProfileConfigIsTheValueEnforced() throws Exception {
    String gate = "configured";
    List<Call> calls = new ArrayList<>();
    List<Call> rejected;
    try {
      IntStream.range(0, 4)
          .forEach(i -> calls.add(call("GET", "api/configured/" + gate + "/" + i)));

      awaitDone(calls, 2, gate);
      awaitRecord(gate, r -> r.entered() == 2);
      rejected = calls.stream().filter(Call::isDone).toList();

      assertThat(rejected)
          .hasSize(2)
          .allSatisfy(
              c -> {
                assertThat(c.response().statusCode()).isEqualTo(503);
                assertThat(c.response().body()).contains(GuardedService.CONFIGURED);
              });
    } finally {
      open(gate);
    }
    awaitDone(calls, 4, gate);
    assertThat(calls.stream().filter(c -> !rejected.contains(c)))
        .allSatisfy(c -> assertThat(c.response().statusCode()).isEqualTo(200));
    Record record = record(gate);
    assertThat(record.max()).isEqualTo(2);
    assertThat(record.entered()).isEqualTo(2);
    System.out.println("configured bulkhead record: " + record);

    assertThat(limitLine(GuardedService.CONFIGURED))
        .contains("value=2 (bulwark.bulkhead." + GuardedService.CONFIGURED + ".value)");
  }

  @Test
  void rateLimitOfThreeAnHourAdmitsThreeThenRejectsWithRetryAfter() throws Exception {
    List<HttpResponse<String>> responses = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      responses.add(call("GET", "api/rated/" + i).await(WAIT));
    }

    assertThat(responses.subList(0, 3))
        .extracting(HttpResponse::statusCode)
        .containsExactly(200, 200, 200);
    assertThat(responses.subList(0, 3))
        .extracting(HttpResponse::body)
        .containsExactly("rated 0", "rated 1", "rated 2");
    HttpResponse<String> rejected = responses.get(3);
    assertThat(rejected.statusCode()).isEqualTo(429);
    assertThat(rejected.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
    assertThat(rejected.body())
        .contains("\"type\":\"tag:bulwark.dev,2025:problem:rate-limited\"")
        .contains("\"limit\":\"" + GuardedService.class.getName() + "#rated\"");
    long retryAfter = Long.parseLong(rejected.headers().firstValue("Retry-After").orElseThrow());
    // SMOOTH: a burst of 3, then one permit every 20 minutes
    assertThat(retryAfter).isBetween(1L, 1200L);
    assertThat(rejected.body()).contains("\"retryAfter\":" + retryAfter);
    System.out.println("rate limit: Retry-After " + retryAfter + " s; " + rejected.body());
  }

  @Test
  void writeLockFencingTokensGrowWithEveryGrant() throws Exception {
    List<String> accounts = List.of("alice", "alice", "bob", "alice", "bob", "alice");
    List<Long> tokens = new ArrayList<>();
    for (String account : accounts) {
      HttpResponse<String> response =
          call("POST", "api/accounts/" + account + "/writes").await(WAIT);
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      tokens.add(Long.parseLong(response.body()));
    }

    List<Long> alice = new ArrayList<>();
    for (int i = 0; i < accounts.size(); i++) {
      if (accounts.get(i).equals("alice")) {
        alice.add(tokens.get(i));
      }
    }
    assertThat(alice).as("tokens of key alice").isSorted().doesNotHaveDuplicates();
    assertThat(tokens).as("tokens of lock payara-accounts").isSorted().doesNotHaveDuplicates();
    System.out.println("fencing tokens " + accounts + " -> " + tokens);
  }

  @Test
  void payarasOwnFallbackHandlesABulwarkRejection() throws Exception {
    String gate = "fallback";
    Call holder;
    HttpResponse<String> second;
    try {
      holder = call("GET", "api/fallback/" + gate + "/0");
      awaitRecord(gate, r -> r.entered() == 1);

      second = call("GET", "api/fallback/" + gate + "/1").await(WAIT);
    } finally {
      open(gate);
    }

    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(second.body()).isEqualTo("fallback 1");
    HttpResponse<String> first = holder.await(WAIT);
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.body()).isEqualTo("ran 0");
    Record record = record(gate);
    assertThat(record.entered()).isEqualTo(1);
    assertThat(record.max()).isEqualTo(1);
    System.out.println(
        "fallback: second call -> "
            + second.body()
            + ", holder -> "
            + first.body()
            + "; "
            + record);
  }

  @Test
  void rejectionsLeaveNoStackTraceInTheLog() throws Exception {
    for (int i = 0; i < 5; i++) {
      call("GET", "api/rated/" + (100 + i)).await(WAIT);
    }
    assertThat(server.log())
        .as("a rejection answered by Bulwark's mapper is not a server error")
        .doesNotContain("RateLimitExceededException")
        .doesNotContain("BulkheadFullException");
  }

  @Test
  void payaraListensOnLoopbackOnlyWithoutHazelcast() {
    assertThat(server.log())
        .contains("bound to [/127.0.0.1:" + server.port() + "]")
        .doesNotContain("Data Grid Status");
  }

  @Test
  void startupTableListsEveryLimitWithItsSource() {
    String log = server.log();
    assertThat(log).contains("BULWARK0401: 5 limit(s), store 'local', failure policy FAIL_CLOSED");
    assertThat(limitLine(GuardedService.class.getName() + "#bulkhead"))
        .contains("value=2 (annotation)");
    assertThat(limitLine(GuardedService.class.getName() + "#rated")).contains("window=60m");
    assertThat(limitLine("payara-accounts")).contains("mode=WRITE");
    assertThat(limitLine(GuardedService.class.getName() + "#withFallback"))
        .contains("value=1 (annotation)");
    List<String> table =
        log.lines().dropWhile(l -> !l.contains("BULWARK0401: 5 limit(s)")).limit(6).toList();
    System.out.println("startup table on Payara:\n" + String.join("\n", table));
  }

  // ---- helpers ----

  /** One HTTP request in flight, with when it was sent and when it was answered. */
  record Call(
      int id,
      long sentNanos,
      AtomicLong answeredNanos,
      CompletableFuture<HttpResponse<String>> future) {

    /** Milliseconds from sending to the answer. */
    long millis() {
      return TimeUnit.NANOSECONDS.toMillis(answeredNanos.get() - sentNanos);
    }

    boolean isDone() {
      return future.isDone();
    }

    HttpResponse<String> response() {
      return future.join();
    }

    HttpResponse<String> await(Duration timeout) throws Exception {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** What a gate recorded: calls that entered, are inside now, and the most inside at once. */
  record Record(int entered, int inside, int max) {
    private static final Pattern FORMAT =
        Pattern.compile("entered=(\\d+),inside=(\\d+),max=(\\d+)");

    static Record parse(String text) {
      Matcher m = FORMAT.matcher(text);
      if (!m.matches()) {
        throw new AssertionError("not a gate record: " + text);
      }
      return new Record(
          Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }
  }

  /** Sends a request without waiting; the call's id is the path's last segment when numeric. */
  private static Call call(String method, String path) {
    int id = path.matches(".*/\\d+$") ? Integer.parseInt(path.replaceAll(".*/", "")) : -1;
    HttpRequest request =
        HttpRequest.newBuilder(server.uri(path))
            .timeout(Duration.ofSeconds(90))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
    long sent = System.nanoTime();
    AtomicLong answered = new AtomicLong();
    CompletableFuture<HttpResponse<String>> future =
        client
            .sendAsync(request, HttpResponse.BodyHandlers.ofString())
            .whenComplete((r, e) -> answered.set(System.nanoTime()));
    return new Call(id, sent, answered, future);
  }

  /** Waits, bounded, until {@code count} of {@code calls} are answered. */
  private static void awaitDone(List<Call> calls, int count, String gate) throws Exception {
    CountDownLatch done = new CountDownLatch(count);
    calls.forEach(c -> c.future().whenComplete((r, e) -> done.countDown()));
    if (!done.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(
          "only "
              + calls.stream().filter(Call::isDone).count()
              + " of "
              + calls.size()
              + " calls answered within "
              + WAIT
              + ", expected "
              + count
              + "; gate "
              + gate
              + ": "
              + record(gate));
    }
  }

  /** Polls the gate's record, bounded, until {@code condition} holds; returns that record. */
  private static Record awaitRecord(String gate, Predicate<Record> condition) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Record last = record(gate);
    while (!condition.test(last)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("gate " + gate + " never reached the expected state: " + last);
      }
      Thread.sleep(20);
      last = record(gate);
    }
    return last;
  }

  private static Record record(String gate) throws Exception {
    HttpResponse<String> response = call("GET", "api/gates/" + gate).await(WAIT);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Record.parse(response.body());
  }

  private static void open(String gate) throws Exception {
    call("POST", "api/gates/" + gate + "/open").await(WAIT);
  }

  private static void report(String what, List<Call> calls) {
    System.out.println(
        what
            + " answered after (ms): "
            + calls.stream().map(c -> "#" + c.id() + " " + c.millis()).toList());
  }

  /** The startup table's line for the limit {@code name}. */
  private static String limitLine(String name) {
    return server
        .log()
        .lines()
        .filter(
            l -> l.trim().matches("(bulkhead|rate-limit|lock)\\s+" + Pattern.quote(name) + "\\s.*"))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no startup table line for " + name + ":\n" + server.tail()));
  }

  static Path workDirectory() {
    return Path.of(
        System.getProperty(
            MicroServer.WORK_PROPERTY, System.getProperty("java.io.tmpdir") + "/bulwark-payara"));
  }
}
