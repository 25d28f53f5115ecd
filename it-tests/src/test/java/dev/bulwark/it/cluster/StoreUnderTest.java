package dev.bulwark.it.cluster;

/**
 * A store the multi-JVM scenarios run on: Redis (standalone, Cluster), or the JPA store on
 * PostgreSQL, MariaDB or H2. Each run gets a space of its own in it ({@link #open}), so runs never
 * see each other's state; the scenarios themselves do not know which store they run on.
 */
interface StoreUnderTest {

  /**
   * Makes the space of run {@code id} (a key prefix, a schema, a database), resolving the server
   * through {@link dev.bulwark.tck.TestServices} — which skips the test when there is none.
   */
  StoreSpace open(String id, java.nio.file.Path runDir);
}
