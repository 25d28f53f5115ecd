package dev.bulwark.jpa;

import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.GrantListener;
import dev.bulwark.tck.StoreFixture;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The JPA store under the contract suites: every opened store is one JVM (an instance id, a pool
 * and a wake-up thread of its own) on the test database, all on tables of one fresh prefix that
 * schema generation creates and {@link #cleanUp} drops. A marker flushes the hand-overs other JVMs
 * made by looking for them at once, then tells the listener of the marker.
 */
final class JpaStoreFixture extends StoreFixture {

  private final TestDatabase database;
  private final Provider provider;
  private final String prefix = newPrefix();
  private final Map<BulwarkStore, GrantListener> listeners = new IdentityHashMap<>();
  private final boolean generated;
  private final DatabaseClock clock;

  JpaStoreFixture(TestDatabase database, Provider provider) {
    this(database, provider, true);
  }

  private JpaStoreFixture(TestDatabase database, Provider provider, boolean generated) {
    this.database = database;
    this.provider = provider;
    this.generated = generated;
    this.clock = new DatabaseClock(database);
  }

  /** A fixture whose tables come from the shipped DDL, with schema generation off. */
  static JpaStoreFixture onShippedDdl(TestDatabase database) {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE, false);
    ShippedDdl.apply(database, fixture.prefix);
    return fixture;
  }

  static String newPrefix() {
    byte[] bytes = new byte[4];
    new SecureRandom().nextBytes(bytes);
    return "t" + HexFormat.of().formatHex(bytes) + "_";
  }

  String prefix() {
    return prefix;
  }

  TestDatabase database() {
    return database;
  }

  /** The store's configuration under this fixture's prefix. */
  Map<String, String> config() {
    Map<String, String> config = database.config(prefix);
    config.put("schema-generation", generated ? "create" : "none");
    config.put("provider", provider.className);
    return config;
  }

  JpaStore open(Map<String, String> config, GrantListener listener) {
    return JpaStore.open(
        JpaSettings.from(
            k -> Optional.ofNullable(config.get(k.substring("bulwark.jpa.".length())))),
        listener);
  }

  @Override
  protected BulwarkStore openStore(GrantListener listener) {
    JpaStore store = open(config(), listener);
    synchronized (listeners) {
      listeners.put(store, listener);
    }
    return store;
  }

  @Override
  public boolean jvmsShareState() {
    return true;
  }

  @Override
  public long clockNanos() {
    return clock.nowMicros() * 1000;
  }

  @Override
  public String storeName() {
    return "the JPA store on "
        + database
        + " with "
        + provider
        + (generated ? "" : " (shipped DDL)");
  }

  @Override
  public boolean sendWakeUpMarker(BulwarkStore store, long marker) {
    ((JpaStore) store).deliverWakeUps();
    GrantListener listener;
    synchronized (listeners) {
      listener = listeners.get(store);
    }
    listener.granted(marker, 0);
    return true;
  }

  @Override
  protected void cleanUp() {
    clock.close();
    database.dropTables(prefix);
  }
}
