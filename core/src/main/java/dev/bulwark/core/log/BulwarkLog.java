package dev.bulwark.core.log;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.function.Supplier;

/**
 * Where Bulwark logs: {@link System.Logger}, one per class, so the messages reach whatever the
 * platform logs with (JUL on Weld SE and Payara, JBoss Log Manager on Quarkus and WildFly) without
 * a logging library of Bulwark's own. What an operator acts on goes through a {@link LogMessage},
 * with its id, and is formatted only when its level is on; what only a developer reads is {@link
 * #debug}.
 */
public final class BulwarkLog {

  private final Logger logger;

  private BulwarkLog(Logger logger) {
    this.logger = logger;
  }

  /** The log of {@code owner}, named after it (a handler or level set on that name applies). */
  public static BulwarkLog of(Class<?> owner) {
    return new BulwarkLog(System.getLogger(owner.getName()));
  }

  /** A log of a name of its own, as {@code dev.bulwark} for what concerns the whole extension. */
  public static BulwarkLog named(String name) {
    return new BulwarkLog(System.getLogger(name));
  }

  public void info(LogMessage message, Object... arguments) {
    log(Level.INFO, message, null, arguments);
  }

  public void warn(LogMessage message, Object... arguments) {
    log(Level.WARNING, message, null, arguments);
  }

  public void warn(LogMessage message, Throwable failure, Object... arguments) {
    log(Level.WARNING, message, failure, arguments);
  }

  /** A WARN the first time, DEBUG after: a condition worth one warning, not one per occurrence. */
  public void warnOnce(boolean first, LogMessage message, Throwable failure, Object... arguments) {
    log(first ? Level.WARNING : Level.DEBUG, message, failure, arguments);
  }

  /** What a developer looking into a run reads; no id. */
  public void debug(Supplier<String> message, Throwable failure) {
    if (logger.isLoggable(Level.DEBUG)) {
      logger.log(Level.DEBUG, message, failure);
    }
  }

  public void debug(String message, Throwable failure) {
    logger.log(Level.DEBUG, message, failure);
  }

  public void debug(String message) {
    logger.log(Level.DEBUG, message);
  }

  private void log(Level level, LogMessage message, Throwable failure, Object... arguments) {
    if (!logger.isLoggable(level)) {
      return;
    }
    Supplier<String> text = () -> message.format(arguments);
    if (failure == null) {
      logger.log(level, text);
    } else {
      logger.log(level, text, failure);
    }
  }
}
