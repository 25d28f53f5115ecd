package dev.bulwark.it.cluster.harness;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The stores every multi-JVM scenario runs on, one test invocation each ({@code @MethodSource}). A
 * store whose server {@link dev.bulwark.tck.TestServices} cannot find skips its invocation only.
 * {@code -Dbulwark-it.stores=jpa-postgresql,jpa-mariadb} runs only the stores named (by their
 * {@code toString()}). Not under {@code bulwark.}: Maven hands a {@code -D} to the tests' JVM,
 * where the containers' start refuses a {@code bulwark.*} key it does not read.
 */
public final class Stores {

  public static final String SELECTION = "bulwark-it.stores";

  private Stores() {}

  /** The shared servers: the Redis store, and the JPA store on PostgreSQL and on MariaDB. */
  public static Stream<StoreUnderTest> shared() {
    return Stream.of(RedisUnderTest.shared(), JpaUnderTest.postgresql(), JpaUnderTest.mariadb())
        .filter(store -> selected(store.toString()));
  }

  /**
   * The JPA store on PostgreSQL through an application's persistence unit whose database starts
   * transactions at REPEATABLE READ: run by the scenarios whose rules that level broke (two holders
   * of one permit, a lock with two writers), not by every one, to keep the run short.
   */
  public static Stream<StoreUnderTest> repeatableReadUnit() {
    return Stream.<StoreUnderTest>of(JpaUnderTest.postgresqlUnitAtRepeatableRead())
        .filter(store -> selected(store.toString()));
  }

  /** Whether the store named {@code name} is to run: all are, unless some are selected. */
  public static boolean selected(String name) {
    String selection = System.getProperty(SELECTION, "").trim();
    List<String> names = Arrays.stream(selection.split(",")).map(String::trim).toList();
    return selection.isEmpty() || names.contains(name);
  }
}
