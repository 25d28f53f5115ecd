package dev.bulwark.sample;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Sends HTTP requests from a pool of threads, so tests can have many calls in flight at once. */
final class Http implements AutoCloseable {

  /** The longest any test waits for anything. */
  static final Duration PATIENCE = Duration.ofSeconds(20);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final ExecutorService pool;
  private final URI root;

  Http(URI root, int threads) {
    this.root = root;
    this.pool = Executors.newFixedThreadPool(threads);
  }

  /** Starts {@code GET path} on a pool thread. */
  Future<HttpResponse<String>> get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  /** Starts {@code POST path} with a JSON body on a pool thread. */
  Future<HttpResponse<String>> post(String path, String json) {
    return send(
        HttpRequest.newBuilder(uri(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  /** Starts a request on a pool thread. */
  Future<HttpResponse<String>> send(HttpRequest.Builder request) {
    HttpRequest built = request.timeout(PATIENCE).build();
    return pool.submit(() -> client.send(built, HttpResponse.BodyHandlers.ofString()));
  }

  private URI uri(String path) {
    return root.resolve(path.startsWith("/") ? path.substring(1) : path);
  }

  static JsonNode json(HttpResponse<String> response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError("Not JSON: " + response.body(), e);
    }
  }

  /** Waits, within {@link #PATIENCE}, until {@code condition} holds. */
  static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("Gave up waiting after " + PATIENCE + " until " + what);
      }
      Thread.sleep(5);
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
    try {
      if (!pool.awaitTermination(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("HTTP calls still running after " + PATIENCE);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
