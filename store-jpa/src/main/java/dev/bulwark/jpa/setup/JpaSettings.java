package dev.bulwark.jpa.setup;

import dev.bulwark.core.config.SettingReader;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The {@code bulwark.jpa.*} configuration, read and checked once when the store opens.
 *
 * @param url JDBC URL of the store's own unit (Java SE), or null with {@code persistenceUnit}
 * @param user database user, or null
 * @param password database password, or null; never logged
 * @param persistenceUnit a named persistence unit to use instead of {@code url}, or null
 * @param datasource the JNDI name of a container data source, or null: read here so that every key
 *     is checked in one place, used by a container integration (see {@code JpaStore.on})
 * @param provider the {@link jakarta.persistence.spi.PersistenceProvider} class to use when several
 *     are on the class path, or null for the first one found
 * @param tablePrefix what every table name starts with
 * @param createSchema whether the store creates missing tables through the provider's schema
 *     generation (otherwise a missing table fails the start)
 * @param poolSize connections of the store's own pool
 * @param connectTimeout how long a call waits for a connection
 * @param wakeUpCheckInterval how often a JVM looks for hand-overs to its waiters made by other JVMs
 *     (and how long a waiter trusts its wake-up before it polls)
 * @param cleanupInterval how often expired rows are deleted
 * @param reconnectInterval how often one call tries the database again during an outage
 * @param maxAttempts how often an operation runs at most when the database reports a conflict
 */
public record JpaSettings(
    String url,
    String user,
    String password,
    String persistenceUnit,
    String datasource,
    String provider,
    String tablePrefix,
    boolean createSchema,
    int poolSize,
    Duration connectTimeout,
    Duration wakeUpCheckInterval,
    Duration cleanupInterval,
    Duration reconnectInterval,
    int maxAttempts) {

  public static final String PREFIX = "bulwark.jpa.";
  public static final String DEFAULT_TABLE_PREFIX = "bulwark_";

  /** Every key {@link #from} reads. */
  public static final Set<String> KEYS =
      SettingReader.keys(
          PREFIX,
          "url",
          "persistence-unit",
          "datasource",
          "table-prefix",
          "schema-generation",
          "user",
          "password",
          "provider",
          "pool-size",
          "connect-timeout",
          "wake-up-check-interval",
          "cleanup-interval",
          "reconnect-interval",
          "max-attempts");

  private static final Pattern TABLE_PREFIX = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,29}");

  /** Reads every setting from {@code config} (keys without the {@code bulwark.jpa.} prefix). */
  public static JpaSettings from(Function<String, Optional<String>> config) {
    Reader read = new Reader(new SettingReader(config::apply, InvalidJpaSettingException::new));
    Optional<String> url = read.text("url");
    Optional<String> unit = read.text("persistence-unit");
    Optional<String> datasource = read.text("datasource");
    if (url.isPresent() && unit.isPresent()) {
      throw read.invalid(
          "persistence-unit", unit.get(), "is set together with bulwark.jpa.url; keep one of them");
    }
    if (datasource.isPresent() && (url.isPresent() || unit.isPresent())) {
      throw read.invalid(
          "datasource",
          datasource.get(),
          "is set together with bulwark.jpa.url or bulwark.jpa.persistence-unit; keep one of them");
    }
    if (url.isEmpty() && unit.isEmpty() && datasource.isEmpty()) {
      throw new InvalidJpaSettingException(
          "bulwark.store=jpa needs bulwark.jpa.url (the store's own connection pool),"
              + " bulwark.jpa.persistence-unit (a persistence unit that lists Bulwark's entities)"
              + " or bulwark.jpa.datasource (a container data source)");
    }
    if (url.isPresent() && !url.get().startsWith("jdbc:")) {
      throw read.invalid("url", RedactedUrl.of(url.get()), "must be a JDBC URL (jdbc:...)");
    }
    String tablePrefix = read.text("table-prefix").orElse(DEFAULT_TABLE_PREFIX);
    if (!TABLE_PREFIX.matcher(tablePrefix).matches()) {
      throw read.invalid(
          "table-prefix",
          tablePrefix,
          "must be a letter followed by up to 29 letters, digits or underscores");
    }
    String generation = read.text("schema-generation").orElse("none");
    if (!generation.equals("none") && !generation.equals("create")) {
      throw read.invalid("schema-generation", generation, "must be none or create");
    }
    return new JpaSettings(
        url.orElse(null),
        read.text("user").orElse(null),
        read.text("password").orElse(null),
        unit.orElse(null),
        datasource.orElse(null),
        read.text("provider").orElse(null),
        tablePrefix,
        generation.equals("create"),
        read.positiveInt("pool-size", 8),
        read.duration("connect-timeout", Duration.ofSeconds(2)),
        read.duration("wake-up-check-interval", Duration.ofSeconds(1)),
        read.duration("cleanup-interval", Duration.ofMinutes(1)),
        read.duration("reconnect-interval", Duration.ofSeconds(1)),
        read.positiveInt("max-attempts", 5));
  }

  /** Where the store's tables are, for messages; never with the password. */
  public String describe() {
    if (url != null) {
      return "the database at " + redactedUrl();
    }
    return persistenceUnit != null
        ? "the database of persistence unit " + persistenceUnit
        : "the database of data source " + datasource;
  }

  /** The JDBC URL as messages show it, a password written in it replaced by {@code ***}. */
  public String redactedUrl() {
    return RedactedUrl.of(url);
  }

  /** The settings without the password, in the configuration or in the URL. */
  @Override
  public String toString() {
    return "JpaSettings[url="
        + redactedUrl()
        + ", user="
        + user
        + ", persistenceUnit="
        + persistenceUnit
        + ", datasource="
        + datasource
        + ", tablePrefix="
        + tablePrefix
        + ", poolSize="
        + poolSize
        + "]";
  }

  /** The configuration key of {@code name}. */
  public static String key(String name) {
    return PREFIX + name;
  }

  /** Bulwark's one reader of settings, under the {@code bulwark.jpa.} prefix. */
  private record Reader(SettingReader settings) {

    Optional<String> text(String name) {
      return settings.text(key(name));
    }

    int positiveInt(String name, int fallback) {
      return settings.integer(key(name), 1, 999_999_999).orElse(fallback);
    }

    Duration duration(String name, Duration fallback) {
      Duration parsed = settings.duration(key(name), ChronoUnit.MILLIS).orElse(fallback);
      if (parsed.compareTo(Duration.ofMillis(1)) < 0) {
        throw invalid(name, text(name).orElse(""), "must be at least 1ms");
      }
      return parsed;
    }

    RuntimeException invalid(String name, String value, String why) {
      return settings.invalid(key(name), value, why);
    }
  }
}
