package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.jpa.setup.JpaSettings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link JpaSettings#KEYS}, which a start checks the given {@code bulwark.jpa.*} keys against, are
 * the keys reading the settings asks for: a key read but not listed would be refused as misspelt,
 * one listed but not read would let a mistake pass.
 */
class JpaSettingsKeysTest {

  @Test
  void theListedKeysAreTheKeysRead() {
    List<Map<String, String>> configs =
        List.of(
            Map.of("bulwark.jpa.url", "jdbc:h2:mem:keys"),
            Map.of("bulwark.jpa.persistence-unit", "unit"),
            Map.of("bulwark.jpa.datasource", "jdbc/store"));
    Set<String> read = new TreeSet<>();
    for (Map<String, String> config : configs) {
      JpaSettings.from(
          key -> {
            read.add(key);
            return Optional.ofNullable(config.get(key));
          });
    }
    assertThat(read).containsExactlyInAnyOrderElementsOf(JpaSettings.KEYS);
  }
}
