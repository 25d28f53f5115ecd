package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.jpa.entity.RowIds;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Lock keys that differ only in an unpaired surrogate (which UTF-8 cannot hold: Java writes {@code
 * ?} for it) are different locks, as on the Redis store; a well-formed key keeps the row id it
 * always had, the SHA-256 of its UTF-8.
 */
class UnpairedSurrogateKeysTest {

  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"H2", "POSTGRESQL"})
  void keysThatDifferInAnUnpairedSurrogateAreDifferentLocks(TestDatabase database) {
    JpaStoreFixture fixture = new JpaStoreFixture(database, Provider.HIBERNATE);
    LockSpec spec = new LockSpec("surrogates", 60_000);
    try (JpaStore store = fixture.open(fixture.config(), (request, token) -> {})) {
      for (String[] pair :
          new String[][] {{"order-\uD800", "order-?"}, {"\uDC00x", "?x"}, {"a\uDBFF", "a\uDBFE"}}) {
        assertThat(store.locks().acquire(spec, pair[0], LockMode.WRITE, 1, false).outcome())
            .isEqualTo(Grant.GRANTED.outcome());
        assertThat(store.locks().acquire(spec, pair[1], LockMode.WRITE, 2, false).outcome())
            .as("a write lock on %s beside one on a key that differs in a surrogate", pair[1])
            .isEqualTo(Grant.GRANTED.outcome());
        store.locks().release(spec, pair[0], 1);
        store.locks().release(spec, pair[1], 2);
      }
    } finally {
      fixture.close();
    }
  }

  @Test
  void aWellFormedKeyKeepsItsRowId() throws Exception {
    String key = "ключ 🔑";
    byte[] utf8 = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
    assertThat(RowIds.key(key)).isEqualTo(HexFormat.of().formatHex(utf8));
  }
}
