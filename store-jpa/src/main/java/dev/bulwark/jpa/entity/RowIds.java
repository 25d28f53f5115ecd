package dev.bulwark.jpa.entity;

import dev.bulwark.core.sharedstore.KeyBytes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Row ids built from user data (names, lock keys) as SHA-256 hex: fixed width, indexable, and never
 * interpreted by the database, which only ever sees them as bound parameters. The hashed bytes are
 * {@link KeyBytes}, as on every store: strings that differ only in an unpaired surrogate are
 * different rows (a well-formed string is its UTF-8, so existing rows keep their ids).
 */
public final class RowIds {

  private RowIds() {}

  public static String limit(String kind, String name) {
    return sha256(kind + '\0' + name);
  }

  /** The key of a lock; the empty key of a bulkhead permit stays empty. */
  public static String key(String key) {
    return key.isEmpty() ? "" : sha256(key);
  }

  public static String claim(String limitId, String keyHash, String instance, long requestId) {
    return sha256(limitId + '\0' + keyHash + '\0' + instance + '\0' + requestId);
  }

  private static String sha256(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(KeyBytes.of(text)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
