package dev.bulwark.sample;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The {@code jpa-h2} profile: Hibernate ORM on an H2 file. */
@QuarkusTest
@TestProfile(JpaH2Profile.class)
class JpaH2StoreTest extends JpaStoreChecks {

  @Override
  StoreDatabase database() {
    return JpaH2Profile.database();
  }

  @Override
  String profile() {
    return JpaH2Profile.PROFILE;
  }
}
