package dev.bulwark.redis;

import dev.bulwark.core.sharedstore.KeyBytes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The key layout (README, "Redis key layout"). Every key of one bulkhead, one rate limit or one
 * lock key shares a hash tag, so each script touches one Cluster slot. Names are validated at
 * deployment; lock keys are untrusted data and enter a key only as a hash.
 */
final class RedisKeys {

  private final String prefix;

  RedisKeys(String prefix) {
    this.prefix = prefix;
  }

  String prefix() {
    return prefix;
  }

  /** The keys of one bulkhead. */
  BulkheadKeys bulkhead(String name) {
    String tag = prefix + "{b:" + name + "}";
    return new BulkheadKeys(
        tag + ":holders", tag + ":queue-order", tag + ":queue-leases", tag + ":state");
  }

  /** The keys of one lock key. */
  LockKeys lock(String name, String key) {
    String tag = prefix + "{l:" + name + ":" + hash(key) + "}";
    return new LockKeys(
        tag + ":readers", tag + ":state", tag + ":queue-order", tag + ":queue-leases");
  }

  /**
   * A bulkhead's holders (sorted set by lease expiry), queue (sorted set by arrival), waiters
   * (sorted set by lease expiry) and state (hash: when each holder was granted, each waiter's mode
   * and wake-up secret).
   */
  record BulkheadKeys(String holders, String queue, String waiters, String state) {

    /** KEYS of every permit script, in the order they read them. */
    List<String> scriptKeys() {
      return List.of(holders, queue, waiters, state);
    }

    List<String> all() {
      return scriptKeys();
    }
  }

  /**
   * A lock key's readers (sorted set), state (writer, fencing counter, grant times, waiters' modes
   * and secrets), queue (sorted set by arrival) and waiters (sorted set by lease expiry).
   */
  record LockKeys(String readers, String state, String queue, String waiters) {

    /** KEYS of every lock script, in the order they read them. */
    List<String> scriptKeys() {
      return List.of(readers, state, queue, waiters);
    }

    List<String> all() {
      return scriptKeys();
    }
  }

  /** The last reply of each caller of rate limit {@code name}, under its hash tag. */
  String rateReplies(String name) {
    return prefix + "{r:" + name + "}:replies";
  }

  String rate(String name, String type) {
    return prefix + "{r:" + name + "}:" + type;
  }

  String bulkheadDefinition(String name) {
    return prefix + "{b:" + name + "}:definition";
  }

  String rateDefinition(String name) {
    return prefix + "{r:" + name + "}:definition";
  }

  String wakeUpChannel(String instance) {
    return prefix + "wake:" + instance;
  }

  /** 128 bits of SHA-256 of {@link #encode}, hex: fixed length, any input. */
  static String hash(String key) {
    byte[] digest = SHA_256.get().digest(encode(key));
    return HEX.formatHex(digest, 0, 16);
  }

  /** The bytes a lock key is hashed from: {@link KeyBytes}, as on every store. */
  static byte[] encode(String key) {
    return KeyBytes.of(key);
  }

  /** Starts the encoding of a key that is not well-formed UTF-16. */
  static final byte MALFORMED = KeyBytes.MALFORMED;

  private static final HexFormat HEX = HexFormat.of();

  /** Looked up once per thread: every lock call hashes its key. */
  private static final ThreadLocal<MessageDigest> SHA_256 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException(e);
            }
          });
}
