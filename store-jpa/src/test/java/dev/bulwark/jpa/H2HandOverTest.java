package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.StoreException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An H2 file shared with {@code AUTO_SERVER}: a JVM that opens the store while the JVM serving the
 * file is killed (a real second JVM process, killed with SIGKILL at moments spread over the open)
 * waits for the file to be served again within {@code connect-timeout} and opens; it never reports
 * the passing hand-over as an invalid setting or a raw connection failure.
 */
class H2HandOverTest {

  /** Kill moments after this JVM starts opening: before, during and after its first connection. */
  private static final long[] KILL_AFTER_MILLIS = {0, 30, 80, 150, 300, 600};

  @TempDir Path directory;

  @Test
  void aStartWhileTheServingJvmDiesOpensOnceTheFileIsServedAgain() throws Exception {
    List<String> outcomes = new ArrayList<>();
    for (int round = 0; round < KILL_AFTER_MILLIS.length; round++) {
      String url = "jdbc:h2:file:" + directory.resolve("store-" + round) + ";AUTO_SERVER=TRUE";
      Process serving = startServingJvm(url);
      try {
        CompletableFuture<String> opening =
            CompletableFuture.supplyAsync(
                () -> {
                  try (JpaStore store =
                      JpaStore.open(
                          JpaSettings.from(
                              key -> Optional.ofNullable(H2ServingJvm.config(url).get(key))),
                          (r, t) -> {})) {
                    // opened; a call the kill catches after the open meets an outage (a
                    // StoreException, the failure policy's case) until the file is served again
                    return grantedOnceServed(store) ? "opened" : "opened, not granted";
                  }
                });
        Thread.sleep(KILL_AFTER_MILLIS[round]);
        serving.destroyForcibly();
        assertThat(serving.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String outcome;
        try {
          outcome = opening.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          outcome = "failed: " + e.getCause();
        }
        outcomes.add("kill after " + KILL_AFTER_MILLIS[round] + " ms: " + outcome);
      } finally {
        serving.destroyForcibly();
      }
    }
    assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome).endsWith(": opened"));
  }

  private static boolean grantedOnceServed(JpaStore store) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        return store.permits().acquire(new PermitSpec("handed-over", 1, 60_000), 1, false)
            == Grant.GRANTED;
      } catch (StoreException outage) {
        if (System.nanoTime() - deadline > 0) {
          throw outage;
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
      }
    }
  }

  /** Starts the other JVM on the file and returns once it serves it. */
  private static Process startServingJvm(String url) throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process process =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                H2ServingJvm.class.getName(),
                url)
            .redirectErrorStream(true)
            .start();
    BufferedReader output =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    List<String> lines = new ArrayList<>();
    for (String line = output.readLine(); line != null; line = output.readLine()) {
      if (line.equals(H2ServingJvm.SERVING)) {
        // keep draining its output, so that a full pipe never blocks it
        Thread drain =
            new Thread(
                () -> {
                  try {
                    while (output.readLine() != null) {
                      // discarded
                    }
                  } catch (IOException ended) {
                    // the process was killed
                  }
                });
        drain.setDaemon(true);
        drain.start();
        return process;
      }
      lines.add(line);
    }
    throw new IllegalStateException("The serving JVM ended before serving: " + lines);
  }
}
