package dev.bulwark.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bulwark.tck.TestServices;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * Two instances of the packaged sample, two JVMs on two ports, started with a shared store's
 * profile as the README shows: the {@code legacy-api} bulkhead of 2 admits 2 of 4 calls sent to
 * both at once, not 2 per instance.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SharedBulkheadIT {

  /** Long enough that all four calls arrive while the first two run, even on a loaded machine. */
  private static final Duration CALL = Duration.ofSeconds(8);

  @Test
  @RequiresServer(TestServices.Service.REDIS)
  void onRedisTwoInstancesAdmitTwoCallsNotFour() throws Exception {
    String prefix = "bulwark-sample-it-" + ProcessHandle.current().pid() + ":";
    Map<String, String> properties =
        Map.of(
            "quarkus.profile",
            "redis",
            "bulwark.redis.url",
            TestServices.redis().url(),
            "bulwark.redis.key-prefix",
            prefix,
            "sample.legacy.call-duration",
            CALL.toSeconds() + "s");
    try (RedisClient redis = RedisClient.create(URI.create(TestServices.redis().url()))) {
      try (SampleProcess first = SampleProcess.start("redis-1", properties);
          SampleProcess second = SampleProcess.start("redis-2", properties)) {
        List<Answer> answers = fourCallsAcross(first, second);
        assertTwoAdmitted(answers, first, second);
      } finally {
        redis.keys(prefix + "*").forEach(redis::del);
      }
    }
  }

  @Test
  void onAnH2FileInAutoServerModeTwoInstancesAdmitTwoCallsNotFour() throws Exception {
    Path file = Path.of("target", "shared-h2-" + ProcessHandle.current().pid()).toAbsolutePath();
    Map<String, String> properties =
        Map.of(
            "quarkus.profile", "jpa-h2",
            "quarkus.datasource.h2.jdbc.url", "jdbc:h2:file:" + file + ";AUTO_SERVER=TRUE",
            "sample.legacy.call-duration", CALL.toSeconds() + "s");
    try (SampleProcess first = SampleProcess.start("h2-1", properties);
        SampleProcess second = SampleProcess.start("h2-2", properties)) {
      List<Answer> answers = fourCallsAcross(first, second);
      assertTwoAdmitted(answers, first, second);
    } finally {
      Files.deleteIfExists(Path.of(file + ".mv.db"));
      Files.deleteIfExists(Path.of(file + ".lock.db"));
    }
  }

  /** One answer to a {@code /legacy/report} call, and when it came. */
  record Answer(int instance, int status, long answeredNanos) {}

  /** Sends two calls to each instance at once; returns every answer. */
  private static List<Answer> fourCallsAcross(SampleProcess first, SampleProcess second)
      throws Exception {
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    List<CompletableFuture<Answer>> calls = new ArrayList<>();
    SampleProcess[] instances = {first, second, first, second};
    for (int i = 0; i < instances.length; i++) {
      int instance = i % 2 + 1;
      HttpRequest request =
          HttpRequest.newBuilder(instances[i].uri("/legacy/report?customer=c" + i))
              .timeout(CALL.multipliedBy(4))
              .build();
      calls.add(
          client
              .sendAsync(request, HttpResponse.BodyHandlers.discarding())
              .thenApply(r -> new Answer(instance, r.statusCode(), System.nanoTime())));
    }
    List<Answer> answers = new ArrayList<>();
    for (CompletableFuture<Answer> call : calls) {
      answers.add(call.get(CALL.multipliedBy(4).toSeconds(), TimeUnit.SECONDS));
    }
    return answers;
  }

  private static void assertTwoAdmitted(
      List<Answer> answers, SampleProcess first, SampleProcess second) throws Exception {
    System.out.println("answers (instance, status): " + answers);
    assertThat(answers)
        .extracting(Answer::status)
        .as("two of four calls admitted across both instances")
        .containsExactlyInAnyOrder(200, 200, 503, 503);
    long firstAdmitted =
        answers.stream()
            .filter(a -> a.status() == 200)
            .mapToLong(Answer::answeredNanos)
            .min()
            .orElseThrow();
    assertThat(answers)
        .filteredOn(a -> a.status() == 503)
        .as("rejected while the admitted calls ran")
        .allMatch(a -> a.answeredNanos() < firstAdmitted);
    JsonNode one = stats(first);
    JsonNode two = stats(second);
    assertThat(one.get("completed").asLong() + two.get("completed").asLong()).isEqualTo(2);
    assertThat(one.get("running").asInt() + two.get("running").asInt()).isZero();
  }

  private static JsonNode stats(SampleProcess instance) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(instance.uri("/legacy/stats"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return Http.json(response);
  }
}
