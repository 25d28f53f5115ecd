package dev.bulwark.sample;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;

/** One scrape of {@code /q/metrics}: each sample line's series ({@code name{labels}}) → value. */
record Scrape(Map<String, Double> samples) {

  static Scrape now() {
    String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
    Map<String, Double> samples = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int split = line.lastIndexOf(' ');
      samples.put(line.substring(0, split), Double.parseDouble(line.substring(split + 1)));
    }
    return new Scrape(samples);
  }

  /** The value of exactly one series; 0 when it does not exist yet (a counter before its event). */
  double value(String series) {
    return samples.getOrDefault(series, 0.0);
  }

  /** The value of a series that must exist. */
  double present(String series) {
    assertThat(samples).as("the scrape").containsKey(series);
    return samples.get(series);
  }

  /** Whether some series has this metric name. */
  boolean has(String metric) {
    return samples.keySet().stream().anyMatch(s -> s.equals(metric) || s.startsWith(metric + "{"));
  }
}
