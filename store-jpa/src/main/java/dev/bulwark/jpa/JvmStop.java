package dev.bulwark.jpa;

/**
 * Whether this JVM has begun to stop, watched for a database that closes at the JVM's exit: H2
 * closes its embedded and {@code AUTO_SERVER} databases in a shutdown hook of its own, which runs
 * beside the application's, so the store's background look-ups would meet the closed database
 * before the application closes the store, and the persistence provider, the transaction manager
 * and the pool would each log its error. Once the stop began they no longer query; a call of the
 * application's still does, and meets the outage it is.
 */
final class JvmStop implements AutoCloseable {

  private final Thread hook;
  private volatile boolean begun;

  private JvmStop(boolean watch) {
    this.hook = watch ? new Thread(() -> begun = true, "bulwark-jpa-jvm-stop") : null;
    if (hook != null) {
      try {
        Runtime.getRuntime().addShutdownHook(hook);
      } catch (IllegalStateException stopping) {
        begun = true; // opened while the JVM stops
      }
    }
  }

  /** Watches the JVM's stop when the database closes with it (H2), else never reports one. */
  static JvmStop watchedFor(boolean databaseClosesAtExit) {
    return new JvmStop(databaseClosesAtExit);
  }

  /** Whether the JVM's shutdown hooks have started. */
  boolean begun() {
    return begun;
  }

  @Override
  public void close() {
    if (hook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException stopping) {
        // the JVM is stopping: the hook runs, or has run, and is dropped with it
      }
    }
  }
}
