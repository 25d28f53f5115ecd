package dev.bulwark.quarkus.deployment.devservices;

import java.nio.file.Path;
import java.util.Optional;

/** What the Dev Services and Dev UI tests need to know about {@code redis-server} here. */
public final class RedisServers {

  private RedisServers() {}

  /** The redis-server on the PATH, as Bulwark's Dev Service finds it. */
  public static Optional<Path> onPath() {
    return ExecutableOnPath.find("redis-server");
  }

  /** A redis-server is on the PATH, or this is CI, where its absence must fail the test. */
  static boolean onPathOrCi() {
    return onPath().isPresent() || "true".equalsIgnoreCase(System.getenv("CI"));
  }

  /** One field of an {@code INFO} reply, e.g. {@code process_id}. */
  static String field(String info, String name) {
    return info.lines()
        .filter(line -> line.startsWith(name + ":"))
        .map(line -> line.substring(name.length() + 1).strip())
        .findFirst()
        .orElseThrow(() -> new AssertionError("INFO has no " + name + ": " + info));
  }
}
