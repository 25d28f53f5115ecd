package dev.bulwark.jpa.setup;

import java.util.Map;
import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.ImplicitIndexNameSource;
import org.hibernate.boot.model.naming.ImplicitNamingStrategyJpaCompliantImpl;
import org.hibernate.boot.model.naming.PhysicalNamingStrategyStandardImpl;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;

/**
 * The table prefix on Hibernate: a physical naming strategy for the tables and an implicit one for
 * the index names. Loaded only when Hibernate is the provider.
 */
final class HibernateTableNames {

  private HibernateTableNames() {}

  /** The properties that make Hibernate use {@code names}. */
  static Map<String, Object> properties(TableNames names) {
    return Map.of(
        "hibernate.physical_naming_strategy", new Tables(names),
        "hibernate.implicit_naming_strategy", new Indexes(names));
  }

  private static final class Tables extends PhysicalNamingStrategyStandardImpl {
    private static final long serialVersionUID = 1L;

    private final transient TableNames names;

    Tables(TableNames names) {
      this.names = names;
    }

    @Override
    public Identifier toPhysicalTableName(Identifier logical, JdbcEnvironment environment) {
      if (logical == null || !names.isStoreTable(logical.getText())) {
        return logical;
      }
      return Identifier.toIdentifier(names.physical(logical.getText()), logical.isQuoted());
    }
  }

  private static final class Indexes extends ImplicitNamingStrategyJpaCompliantImpl {
    private static final long serialVersionUID = 1L;

    private final transient TableNames names;

    Indexes(TableNames names) {
      this.names = names;
    }

    @Override
    public Identifier determineIndexName(ImplicitIndexNameSource source) {
      String table = source.getTableName().getText();
      if (!names.isStoreTable(table)) {
        return super.determineIndexName(source);
      }
      return Identifier.toIdentifier(
          TableNames.index(
              names.physical(table),
              source.getColumnNames().stream().map(Identifier::getText).toList()));
    }
  }
}
