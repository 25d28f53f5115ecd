package dev.bulwark.core.chain;

import dev.bulwark.LockMode;
import dev.bulwark.LockPermit;

/** A permit that adds something to another one's close; everything else is the other one's. */
abstract class ForwardingPermit implements LockPermit {

  private final LockPermit held;

  ForwardingPermit(LockPermit held) {
    this.held = held;
  }

  @Override
  public String name() {
    return held.name();
  }

  @Override
  public String key() {
    return held.key();
  }

  @Override
  public LockMode mode() {
    return held.mode();
  }

  @Override
  public long fencingToken() {
    return held.fencingToken();
  }

  @Override
  public void close() {
    held.close();
  }
}
