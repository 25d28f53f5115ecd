package dev.bulwark.quarkus.rest;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A request sent without waiting for it: the call that holds a permit while the test looks. */
final class Held {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private final CompletableFuture<HttpResponse<String>> response;

  private Held(CompletableFuture<HttpResponse<String>> response) {
    this.response = response;
  }

  static Held send(String method, URI uri) {
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(60))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
    return new Held(CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
  }

  HttpResponse<String> await() throws Exception {
    return response.get(30, TimeUnit.SECONDS);
  }
}
