package dev.bulwark.quarkus.deployment.devservices;

/** For tests of other packages: whether a redis-server is on the PATH. */
public final class RedisServersOnPath {

  private RedisServersOnPath() {}

  public static boolean present() {
    return ExecutableOnPath.find("redis-server").isPresent();
  }
}
