package dev.bulwark.jpa;

import java.time.Duration;

/** What a JVM waits on between two looks for hand-overs: a timer, or the database's notices. */
interface WakeUpSignal extends AutoCloseable {

  /** Returns after at most {@code timeout}, sooner when hand-overs to this JVM may be waiting. */
  void await(Duration timeout) throws InterruptedException;

  @Override
  void close();

  /** Only the check interval: for databases without notifications. */
  static WakeUpSignal timer() {
    return new WakeUpSignal() {
      @Override
      public void await(Duration timeout) throws InterruptedException {
        Thread.sleep(timeout.toMillis());
      }

      @Override
      public void close() {}
    };
  }
}
