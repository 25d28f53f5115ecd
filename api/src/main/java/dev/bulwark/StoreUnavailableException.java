package dev.bulwark;

import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

/** The shared store could not be reached and the failure policy is {@code fail-closed}. */
public class StoreUnavailableException extends FaultToleranceException {
  private static final long serialVersionUID = 1L;

  private final String limitName;

  public StoreUnavailableException(String limitName, String message, Throwable cause) {
    super(message, cause);
    this.limitName = limitName;
  }

  public String getLimitName() {
    return limitName;
  }
}
