package dev.bulwark.jpa.modelcheck;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * The store's connections, able to run something of the check's inside one step: armed on a thread
 * ({@link #during}), they run the check's work once, on that thread, when the thread's transaction
 * is about to send its first write after the statement that locks the limit's row, that is after
 * the step has read what it decides on and before anything it decided is written. The step then
 * goes on as it would have: its write meets whatever the check's work committed meanwhile.
 */
final class RacingConnections {

  private final DataSource dataSource;
  private volatile Thread armed;
  private Runnable work;
  private boolean read;

  RacingConnections(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The data source to give the store. */
  DataSource dataSource() {
    return (DataSource)
        Proxy.newProxyInstance(
            RacingConnections.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = invoke(dataSource, method, args);
              return result instanceof Connection connection ? connection(connection) : result;
            });
  }

  /**
   * Runs {@code step} on this thread with {@code work} run inside it, between its read and its
   * first write; returns whether {@code work} ran (a step that writes nothing leaves it unrun).
   */
  boolean during(Runnable step, Runnable work) {
    this.work = work;
    this.read = false;
    armed = Thread.currentThread();
    try {
      step.run();
    } finally {
      armed = null;
    }
    boolean ran = this.work == null;
    this.work = null;
    return ran;
  }

  private Connection connection(Connection connection) {
    return (Connection)
        Proxy.newProxyInstance(
            RacingConnections.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              Object result = invoke(connection, method, args);
              if (result instanceof PreparedStatement prepared && args != null) {
                return statement(PreparedStatement.class, prepared, (String) args[0]);
              }
              if (result instanceof Statement statement && !(result instanceof PreparedStatement)) {
                return statement(Statement.class, statement, null);
              }
              return result;
            });
  }

  /** {@code statement}, which sends {@code sql} (null: the SQL each execute names). */
  private Object statement(Class<?> type, Statement statement, String sql) {
    return Proxy.newProxyInstance(
        RacingConnections.class.getClassLoader(),
        new Class<?>[] {type},
        (proxy, method, args) -> {
          if (method.getName().startsWith("execute")) {
            String sent =
                sql != null ? sql : args != null && args.length > 0 ? (String) args[0] : "";
            beforeSending(sent);
          }
          return invoke(statement, method, args);
        });
  }

  private void beforeSending(String sql) {
    if (armed != Thread.currentThread() || work == null) {
      return;
    }
    String text = sql.toUpperCase(Locale.ROOT).strip();
    if (text.contains("FOR UPDATE")) {
      read = true;
    } else if (read && !text.startsWith("SELECT")) {
      Runnable now = work;
      work = null;
      now.run();
    }
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
