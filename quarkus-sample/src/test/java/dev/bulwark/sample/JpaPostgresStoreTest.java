package dev.bulwark.sample;

import dev.bulwark.tck.TestServices;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterAll;

/** The {@code jpa-postgresql} profile: Hibernate ORM on PostgreSQL. */
@QuarkusTest
@TestProfile(JpaPostgresProfile.class)
@RequiresServer(TestServices.Service.POSTGRESQL)
class JpaPostgresStoreTest extends JpaStoreChecks {

  @Override
  StoreDatabase database() {
    return JpaPostgresProfile.database();
  }

  @AfterAll
  static void dropSchema() {
    JpaPostgresProfile.execute("DROP SCHEMA IF EXISTS " + JpaPostgresProfile.SCHEMA + " CASCADE");
  }
}
