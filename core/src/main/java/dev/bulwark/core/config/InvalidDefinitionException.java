package dev.bulwark.core.config;

/**
 * A limit definition that cannot be enforced. The message names the method, the member and the
 * config key; the CDI layer turns it into a deployment failure.
 */
public class InvalidDefinitionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InvalidDefinitionException(String message) {
    super(message);
  }

  public InvalidDefinitionException(String message, Throwable cause) {
    super(message, cause);
  }
}
