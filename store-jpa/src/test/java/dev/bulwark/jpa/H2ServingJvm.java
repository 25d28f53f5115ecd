package dev.bulwark.jpa;

import dev.bulwark.jpa.setup.JpaSettings;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;

/**
 * The other JVM of {@link H2HandOverTest}: opens the store on the H2 file it is given (the first
 * JVM of a shared {@code AUTO_SERVER} file serves it to the others), says {@code serving}, and runs
 * until killed or its input ends.
 */
public final class H2ServingJvm {

  static final String SERVING = "serving";

  private H2ServingJvm() {}

  public static void main(String[] args) throws IOException {
    try (JpaStore store =
        JpaStore.open(
            JpaSettings.from(key -> Optional.ofNullable(config(args[0]).get(key))), (r, t) -> {})) {
      System.out.println(SERVING);
      System.out.flush();
      InputStream in = System.in;
      while (in.read() >= 0) {
        // runs until the test kills it or closes its input
      }
    }
  }

  static Map<String, String> config(String url) {
    return Map.of(
        "bulwark.jpa.url", url,
        "bulwark.jpa.user", "sa",
        "bulwark.jpa.password", "",
        "bulwark.jpa.schema-generation", "create",
        "bulwark.jpa.provider", Provider.HIBERNATE.className,
        "bulwark.jpa.connect-timeout", "20s");
  }
}
