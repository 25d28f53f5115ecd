package dev.bulwark;

import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/** A {@link DistributedLock} was not granted within its waiting time. */
public class LockTimeoutException extends FaultToleranceException {
  private static final long serialVersionUID = 1L;

  private final String limitName;
  private final String lockKey;

  public LockTimeoutException(String limitName, String lockKey, String message) {
    super(message);
    this.limitName = limitName;
    this.lockKey = lockKey;
  }

  public LockTimeoutException(String limitName, String lockKey, String message, Throwable cause) {
    super(message, cause);
    this.limitName = limitName;
    this.lockKey = lockKey;
  }

  public String getLimitName() {
    return limitName;
  }

  /** The resource key that stayed locked; empty for a lock without {@link LockKey}. */
  public String getLockKey() {
    return lockKey;
  }
}
