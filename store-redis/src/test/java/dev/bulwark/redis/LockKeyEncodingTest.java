package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Lock keys are hashed from an encoding that keeps every key apart, unpaired surrogates included,
 * and leaves the hash of every well-formed key as it always was.
 */
@ExtendWith(RedisExtension.class)
class LockKeyEncodingTest {

  /** Java's UTF-8 encoder turns both lone surrogates into '?': formerly one lock for all three. */
  private static final List<String> LOOK_ALIKES = List.of("acct\uD8001", "acct\uDFFF1", "acct?1");

  /** Every kind of char the encoding treats differently, including the look-alikes above. */
  private static final char[] ALPHABET = {
    'a', '?', '\u0000', '\u00FF', '\uFFFD', '\uFFFF', '\uD800', '\uDBFF', '\uDC00', '\uDFFF'
  };

  @Test
  void keysThatDifferOnlyInAnUnpairedSurrogateHaveDifferentHashes() {
    assertThat(LOOK_ALIKES.stream().map(RedisKeys::hash).distinct()).hasSize(3);
    assertThat(LOOK_ALIKES.stream().map(RedisKeys::encode).map(ByteBuffer::wrap).distinct())
        .hasSize(3);
    for (String key : LOOK_ALIKES) {
      assertThat(decode(RedisKeys.encode(key))).isEqualTo(key);
    }
  }

  @Test
  void wellFormedKeysKeepTheHashTheyAlwaysHad() {
    // SHA-256 of the UTF-8 bytes, first 16 bytes: the Redis keys of existing locks must not move
    assertThat(RedisKeys.hash("acct?1")).isEqualTo("f995383fceca240fdd7757f90ce746aa");
    assertThat(RedisKeys.hash("ключ 🔑")).isEqualTo("cac1a7c02e541614ce3939af0e8062e9");
    assertThat(RedisKeys.hash("a b{c}\n")).isEqualTo("4025f1c72901af94f09c0820096c297c");
    assertThat(RedisKeys.hash("")).isEqualTo("e3b0c44298fc1c149afbf4c8996fb924");
    assertThat(RedisKeys.encode("ключ 🔑")).isEqualTo("ключ 🔑".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void everyKeyOfUpToThreeCharsIsRecoveredFromItsEncoding() {
    // a decoder that gives back every key proves the encoding injective on all of them
    Map<String, String> keyOfHash = new HashMap<>();
    List<String> keys = new ArrayList<>();
    allStrings("", 3, keys);
    assertThat(keys).hasSize(1 + 10 + 100 + 1000);
    for (String key : keys) {
      assertThat(decode(RedisKeys.encode(key))).as("key %s", escape(key)).isEqualTo(key);
      String other = keyOfHash.put(RedisKeys.hash(key), key);
      assertThat(other).as("hash shared by %s and %s", escape(key), other).isNull();
    }
  }

  @Test
  void randomKeysAreRecoveredFromTheirEncoding() {
    SplittableRandom random = new SplittableRandom(20261130);
    for (int round = 0; round < 20_000; round++) {
      StringBuilder key = new StringBuilder();
      int length = random.nextInt(12);
      for (int i = 0; i < length; i++) {
        // half from the tricky alphabet, half anywhere in the BMP (surrogates included)
        key.append(
            random.nextBoolean()
                ? ALPHABET[random.nextInt(ALPHABET.length)]
                : (char) random.nextInt(0x10000));
      }
      String value = key.toString();
      assertThat(decode(RedisKeys.encode(value))).as("key %s", escape(value)).isEqualTo(value);
    }
  }

  @Test
  void lookAlikeKeysAreSeparateLocksInRedis(TestRedis test) {
    RecordingStore store = test.open();
    LockSpec spec = new LockSpec("accounts", 10_000);
    long requestId = 1;
    for (String key : LOOK_ALIKES) {
      Grant grant = store.store().locks().acquire(spec, key, LockMode.WRITE, requestId++, false);
      assertThat(grant.isGranted()).as("write lock on %s", escape(key)).isTrue();
    }
    assertThat(test.keyNames()).filteredOn(name -> name.endsWith(":state")).hasSize(3);
  }

  /** The inverse of {@link RedisKeys#encode}: strict UTF-8, or the marker and UTF-16 units. */
  private static String decode(byte[] encoded) {
    if (encoded.length > 0 && encoded[0] == RedisKeys.MALFORMED) {
      assertThat(encoded.length % 2).isEqualTo(1);
      StringBuilder key = new StringBuilder();
      for (int i = 1; i < encoded.length; i += 2) {
        key.append((char) (((encoded[i] & 0xFF) << 8) | (encoded[i + 1] & 0xFF)));
      }
      return key.toString();
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(encoded))
          .toString();
    } catch (CharacterCodingException e) {
      throw new AssertionError("not UTF-8 and no marker", e);
    }
  }

  private static void allStrings(String prefix, int depth, List<String> into) {
    into.add(prefix);
    if (depth > 0) {
      for (char c : ALPHABET) {
        allStrings(prefix + c, depth - 1, into);
      }
    }
  }

  private static String escape(String key) {
    StringBuilder escaped = new StringBuilder();
    key.chars().forEach(c -> escaped.append(String.format("\\u%04X", c)));
    return escaped.toString();
  }
}
