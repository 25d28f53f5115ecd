package dev.bulwark.redis.client;

/** A {@code bulwark.redis.*} value that cannot be used; the message names the key. */
public class InvalidRedisSettingException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public InvalidRedisSettingException(String message) {
    super(message);
  }

  public InvalidRedisSettingException(String message, Throwable cause) {
    super(message, cause);
  }
}
