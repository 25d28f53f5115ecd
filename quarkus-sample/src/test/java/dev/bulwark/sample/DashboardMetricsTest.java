package dev.bulwark.sample;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bulwark.Bulwark;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every metric the Grafana dashboard ({@code docs/grafana-dashboard.json}) queries exists in a real
 * scrape of this application, so a renamed meter cannot leave a panel empty unnoticed.
 */
@QuarkusTest
class DashboardMetricsTest {

  @Inject Bulwark bulwark;

  /** Other tests expect partner-api's full burst: wait until the calls made here are regained. */
  @AfterEach
  void letPartnerApiRecover() throws InterruptedException {
    Http.awaitTrue(
        "partner-api has its burst of 5 again",
        () -> bulwark.rateLimiter("partner-api").inspect().available() == 5);
  }

  private static final Path DASHBOARD = Path.of("..", "docs", "grafana-dashboard.json");
  private static final Pattern METRIC = Pattern.compile("\\bbulwark_[a-z0-9_]+");

  @Test
  void everyMetricTheDashboardQueriesIsScraped() throws Exception {
    given().get("/legacy/report?customer=dashboard").then().statusCode(200);
    given().get("/partner/quotes/dashboard").then().statusCode(200);
    given().get("/accounts/dashboard").then().statusCode(200);
    Scrape scrape = Scrape.now();

    List<String> queries = queries(new ObjectMapper().readTree(DASHBOARD.toFile()));
    Set<String> metrics = new TreeSet<>();
    for (String query : queries) {
      Matcher matcher = METRIC.matcher(query);
      while (matcher.find()) {
        metrics.add(matcher.group());
      }
    }

    assertThat(queries).as("the dashboard's queries").hasSizeGreaterThan(10);
    assertThat(metrics)
        .as("metrics the dashboard queries")
        .contains("bulwark_calls_total", "bulwark_wait_time_seconds_bucket")
        .allSatisfy(metric -> assertThat(scrape.has(metric)).as(metric + " scraped").isTrue());
  }

  /** Each panel target's {@code expr} and each template variable's query. */
  private static List<String> queries(JsonNode dashboard) {
    List<String> queries = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        assertThat(target.path("expr").isTextual()).as(panel.path("title") + " query").isTrue();
        queries.add(target.path("expr").asText());
      }
    }
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      if (variable.path("query").isObject()) {
        queries.add(variable.path("query").path("query").asText());
      }
    }
    return queries;
  }
}
