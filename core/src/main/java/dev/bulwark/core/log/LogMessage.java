package dev.bulwark.core.log;

/**
 * Every message Bulwark logs at INFO or above, with its id: an operator filters or alerts on the id
 * ({@code BULWARK0101}), which stays when the wording changes. The ids are listed in
 * docs/operations.md. Each text is a {@link String#format} pattern of its arguments.
 *
 * <p>Ranges: 01xx the engine, 02xx the Redis store, 03xx the JPA store, 04xx the CDI extension and
 * the Fault Tolerance bridge.
 */
public enum LogMessage {
  STORE_UNREACHABLE(
      101, "%s is unreachable (%s); the failure policy applies until it answers again"),
  STORE_ANSWERS_AGAIN(102, "%s answers again after about %s s"),
  RAN_UNGUARDED(103, "%s had run out of lease before its call ended; the call ran unguarded"),
  RELEASE_FAILED(104, "could not release %s; it is reclaimed when its lease runs out"),
  LEASE_LOST(
      105,
      "the store no longer holds %s '%s' of a running call (its lease ran out); the call goes on"
          + " unguarded"),
  RENEWAL_FAILING(106, "lease renewal failed; retrying on every tick until the store answers"),
  DEFINED_DIFFERENTLY(
      107,
      "%s is defined differently on another JVM of this service: here %s, recorded there %s. Each"
          + " JVM enforces its own definition; deploy one value everywhere."),
  LISTENER_FAILED(108, "a listener failed on %s; dropped"),

  REDIS_STORE_OPENED(201, "Redis store on %s, instance %s"),
  REDIS_NOT_SUBSCRIBED_YET(
      202, "no wake-up subscription on %s yet; waiters poll every %s ms until it is there"),
  REDIS_SUBSCRIPTION_LOST(
      203, "lost the Redis wake-up subscription; waiters poll until it is back"),
  REDIS_SUBSCRIPTION_SILENT(
      204, "the Redis wake-up subscription stopped answering PING; waiters poll until it is back"),
  REDIS_SUBSCRIPTION_MOVES(205, "the wake-up subscription moves from %s to %s"),
  REDIS_PRIMARY_GONE(206, "%s is no longer a primary; unsubscribed"),
  REDIS_PRIMARY_NEW(207, "new primary %s; subscribing to wake-ups there"),
  REDIS_UNSIGNED_NOTICE(
      208,
      "ignored a wake-up notice the store did not sign (%s chars); waiters go on waiting for the"
          + " store's own"),

  JPA_NO_LISTEN(
      301,
      "the data source's connections are not PostgreSQL's own; waiters in other JVMs are told of"
          + " hand-overs by the wake-up check alone"),

  LIMITS_AT_START(401, "%s"),
  NO_FT_EXECUTOR(
      402,
      "could not find Fault Tolerance's asynchronous executor; asynchronous calls that waited start"
          + " on the JDK's asynchronous pool"),
  FT_MAPPED(403, "%s"),
  FT_KEY_IGNORED(404, "%s");

  private final String id;
  private final String text;

  LogMessage(int number, String text) {
    this.id = String.format("BULWARK%04d", number);
    this.text = text;
  }

  /** The id an operator filters on, as {@code BULWARK0101}. */
  public String id() {
    return id;
  }

  /** The message as logged: its id, then its text with {@code arguments} filled in. */
  public String format(Object... arguments) {
    return id + ": " + String.format(text, arguments);
  }
}
