package dev.bulwark.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.core.config.ConfigLookup;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The engine owns the store it opened: closing the engine closes it (its connections, threads). */
class EngineCloseTest {

  @Test
  void closingTheEngineClosesTheStoreItOpened() {
    SwitchableStore[] opened = new SwitchableStore[1];
    BulwarkEngine engine =
        BulwarkEngine.start(
            ConfigLookup.of(Map.of("bulwark.store", SwitchableStore.ID)),
            List.of(SwitchableStore.provider(opened)));
    assertThat(opened[0].closed).isFalse();

    engine.close();

    assertThat(opened[0].closed).isTrue();
  }
}
