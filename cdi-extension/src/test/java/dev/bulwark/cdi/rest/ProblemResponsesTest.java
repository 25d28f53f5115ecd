package dev.bulwark.cdi.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadFullException;
import dev.bulwark.LockTimeoutException;
import dev.bulwark.RateLimitExceededException;
import dev.bulwark.StoreUnavailableException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The answers themselves, without a REST runtime; that runtimes use them (and the headers) is
 * tested on Quarkus REST (quarkus/rest-test) and Payara (it-tests).
 */
class ProblemResponsesTest {

  @Test
  void retryAfterIsWholeSecondsRoundedUpAndNeverZero() {
    assertThat(ProblemResponses.retryAfterSeconds(Duration.ofMillis(1))).isEqualTo(1);
    assertThat(ProblemResponses.retryAfterSeconds(Duration.ofMillis(1000))).isEqualTo(1);
    assertThat(ProblemResponses.retryAfterSeconds(Duration.ofMillis(1001))).isEqualTo(2);
    assertThat(ProblemResponses.retryAfterSeconds(Duration.ofNanos(59_000_000_001L))).isEqualTo(60);
    assertThat(ProblemResponses.retryAfterSeconds(Duration.ZERO)).isEqualTo(1);
    assertThat(ProblemResponses.retryAfterSeconds(Duration.ofMillis(-5))).isEqualTo(1);
  }

  @Test
  void aRateLimitIs429WithRetryAfterInTheHeaderAndTheBody() {
    ProblemResponses.Problem problem =
        RateLimitExceededMapper.problem(
            new RateLimitExceededException("partner-api", Duration.ofMillis(1200), "used up"));

    assertThat(problem.status()).isEqualTo(Response.Status.TOO_MANY_REQUESTS);
    assertThat(problem.retryAfterSeconds()).isEqualTo(2);
    assertThat(problem.json())
        .isEqualTo(
            "{\"type\":\"tag:bulwark.dev,2025:problem:rate-limited\",\"title\":\"Rate limit"
                + " exceeded\",\"status\":429,\"detail\":\"Rate limit 'partner-api' has no permit"
                + " left for now.\",\"limit\":\"partner-api\",\"retryAfter\":2}");
  }

  @Test
  void aLockTimeoutNamesTheLockButNotItsKey() {
    ProblemResponses.Problem problem =
        LockTimeoutMapper.problem(
            new LockTimeoutException(
                "accounts", "acct-7781", "lock accounts key acct-7781 not granted"));

    assertThat(problem.status()).isEqualTo(Response.Status.SERVICE_UNAVAILABLE);
    assertThat(problem.retryAfterSeconds()).isNull();
    assertThat(problem.json()).contains("\"limit\":\"accounts\"").doesNotContain("acct-7781");
  }

  @Test
  void anUnavailableStoreIs503WithoutTheStoresMessage() {
    ProblemResponses.Problem problem =
        StoreUnavailableMapper.problem(
            new StoreUnavailableException(
                "legacy-api", "redis.internal:6379 refused", new RuntimeException()));

    assertThat(problem.status()).isEqualTo(Response.Status.SERVICE_UNAVAILABLE);
    assertThat(problem.json())
        .contains("\"type\":\"tag:bulwark.dev,2025:problem:store-unavailable\"")
        .contains("\"limit\":\"legacy-api\"")
        .doesNotContain("redis.internal");
  }

  @Test
  void aNameIsEscapedAsJsonText() {
    ProblemResponses.Problem problem =
        BulkheadFullMapper.problem(new BulkheadFullException("a\"b\\c\nd\u0001", "full"));

    assertThat(problem.json())
        .contains("\"limit\":\"a\\\"b\\\\c\\nd\\u0001\"")
        .contains("\"status\":503");
  }

  @Test
  void everyMapperRanksBelowAnApplicationsDefault() {
    assertThat(ProblemResponsesFeature.MAPPERS)
        .allSatisfy(
            mapper ->
                assertThat(mapper.getAnnotation(Priority.class).value())
                    .isEqualTo(ProblemResponses.PRIORITY)
                    .isGreaterThan(Priorities.USER));
  }
}
