package dev.bulwark.core.sharedstore;

import java.nio.charset.StandardCharsets;

/**
 * The bytes a store hashes a name or lock key from, the same in every store: different strings give
 * different bytes. A well-formed string is its UTF-8. UTF-8 cannot represent an unpaired surrogate
 * (Java's encoder writes {@code ?} instead, which made {@code "a\uD800"} and {@code "a?"} one
 * lock), so a string holding one is {@link #MALFORMED} followed by its UTF-16 code units,
 * big-endian: that byte never occurs in UTF-8, so the two forms cannot meet.
 */
public final class KeyBytes {

  /**
   * Starts the encoding of a string that is not well-formed UTF-16; 0xFF is never part of UTF-8.
   */
  public static final byte MALFORMED = (byte) 0xFF;

  private KeyBytes() {}

  public static byte[] of(String text) {
    if (isWellFormed(text)) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    // by hand: Java's UTF-16 encoder, too, replaces an unpaired surrogate
    byte[] encoded = new byte[1 + 2 * text.length()];
    encoded[0] = MALFORMED;
    for (int i = 0; i < text.length(); i++) {
      char unit = text.charAt(i);
      encoded[1 + 2 * i] = (byte) (unit >>> 8);
      encoded[2 + 2 * i] = (byte) unit;
    }
    return encoded;
  }

  /** Whether every surrogate in {@code text} belongs to a high-low pair. */
  private static boolean isWellFormed(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }
}
