package dev.bulwark.jpa.tx;

import java.sql.Connection;
import java.sql.SQLException;

/** Statements of the store's own, run on the connection of the current transaction. */
@FunctionalInterface
public interface SqlWork<T> {

  T run(Connection connection) throws SQLException;
}
