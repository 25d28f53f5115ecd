package dev.bulwark;

import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/** No permit of a {@link DistributedBulkhead} came free within its waiting time. */
public class BulkheadFullException extends BulkheadException {
  private static final long serialVersionUID = 1L;

  private final String limitName;

  public BulkheadFullException(String limitName, String message) {
    super(message);
    this.limitName = limitName;
  }

  public BulkheadFullException(String limitName, String message, Throwable cause) {
    super(message, cause);
    this.limitName = limitName;
  }

  /** The name of the bulkhead that was full. */
  public String getLimitName() {
    return limitName;
  }
}
