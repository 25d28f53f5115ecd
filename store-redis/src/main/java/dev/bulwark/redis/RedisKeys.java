package dev.bulwark.redis;

import java.nio.charset.StandardCharsets;
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

  /** A bulkhead's holders, queue, waiters and (unused by permits, for renewal) state. */
  List<String> bulkhead(String name) {
    return family("{b:" + name + "}");
  }

  /** One lock key's readers, state (writer, fencing counter), queue and waiters. */
  List<String> lock(String name, String key) {
    String tag = prefix + "{l:" + name + ":" + hash(key) + "}";
    return List.of(tag + ":readers", tag + ":state", tag + ":queue", tag + ":waiters");
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

  private List<String> family(String tag) {
    return List.of(
        prefix + tag + ":holders",
        prefix + tag + ":queue",
        prefix + tag + ":waiters",
        prefix + tag + ":state");
  }

  /** 128 bits of SHA-256, hex: fixed length, any input, no collisions in practice. */
  static String hash(String key) {
    byte[] digest = SHA_256.get().digest(key.getBytes(StandardCharsets.UTF_8));
    return HEX.formatHex(digest, 0, 16);
  }

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
