package dev.bulwark.jpa.setup;

/** A {@code bulwark.jpa.*} value the store cannot start with; the message names the key. */
public class InvalidJpaSettingException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public InvalidJpaSettingException(String message) {
    super(message);
  }

  public InvalidJpaSettingException(String message, Throwable cause) {
    super(message, cause);
  }
}
