package dev.bulwark.jpa;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * A data source that counts the rows its connections hand out (each {@code ResultSet.next()} that
 * answers a row) to one thread while it records: what a store operation run on that thread reads
 * from the database, whatever its provider and statements. Other threads (wake-ups, cleanup) are
 * not counted.
 */
final class RowsRead {

  private final DataSource dataSource;
  private final AtomicLong rows = new AtomicLong();
  private volatile Thread recording;

  RowsRead(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The data source to give the store. */
  DataSource dataSource() {
    return (DataSource) wrap(DataSource.class, dataSource);
  }

  /** The rows the calling thread read while running {@code body}. */
  long during(Runnable body) {
    rows.set(0);
    recording = Thread.currentThread();
    try {
      body.run();
    } finally {
      recording = null;
    }
    return rows.get();
  }

  private Object wrap(Class<?> type, Object target) {
    return Proxy.newProxyInstance(
        RowsRead.class.getClassLoader(),
        new Class<?>[] {type},
        (proxy, method, args) -> {
          Object result = invoke(target, method, args);
          if (type == ResultSet.class
              && method.getName().equals("next")
              && Boolean.TRUE.equals(result)
              && recording == Thread.currentThread()) {
            rows.incrementAndGet();
          }
          return wrapped(method, result);
        });
  }

  private Object wrapped(Method method, Object result) {
    Class<?> type = method.getReturnType();
    if (result == null || method.getName().equals("unwrap")) {
      return result;
    }
    if (type == Connection.class
        || type == Statement.class
        || type == PreparedStatement.class
        || type == CallableStatement.class
        || type == ResultSet.class) {
      return wrap(type, result);
    }
    return result;
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
