package dev.bulwark.jpa.setup;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Why the store's pool could not connect, told as the setting at fault: the credentials or the URL,
 * with the driver's words but never the configured password.
 */
final class ConnectFailures {

  private ConnectFailures() {}

  /** The setting a failed connection points at: credentials or the URL. */
  static InvalidJpaSettingException diagnosed(JpaSettings settings, RuntimeException e) {
    SQLException sql = null;
    for (Throwable t = e; t != null && sql == null; t = t.getCause()) {
      if (t instanceof SQLException found) {
        sql = found;
      }
    }
    String state = sql == null || sql.getSQLState() == null ? "" : sql.getSQLState();
    String detail = sanitized(sql != null ? sql.getMessage() : e.getMessage(), settings);
    if (state.startsWith("28") || (sql != null && sql.getErrorCode() == 1045)) {
      return new InvalidJpaSettingException(
          "bulwark.jpa.user / bulwark.jpa.password: "
              + settings.describe()
              + " refused them ("
              + detail
              + ")",
          null);
    }
    return new InvalidJpaSettingException(
        "bulwark.jpa.url=" + settings.redactedUrl() + ": cannot connect (" + detail + ")", null);
  }

  /**
   * {@code message} without the configured password or one written in the URL, whatever a driver
   * chose to quote.
   */
  static String sanitized(String message, JpaSettings settings) {
    String text = RedactedUrl.of(String.valueOf(message));
    List<String> passwords = new ArrayList<>(RedactedUrl.passwords(settings.url()));
    if (settings.password() != null) {
      passwords.add(settings.password());
    }
    for (String password : passwords) {
      if (!password.isEmpty()) {
        text = text.replace(password, "***");
      }
    }
    return text;
  }
}
