package dev.bulwark.spi;

/** The store could not be reached or did not answer; the engine applies the failure policy. */
public class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public StoreException(String message) {
    super(message);
  }
}
