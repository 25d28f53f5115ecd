package dev.bulwark.quarkus.devui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.event.Granted;
import dev.bulwark.event.LimitType;
import dev.bulwark.event.Released;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The lock keys the Dev UI inspects: granted ones, per lock, the latest first, a bounded few. */
class LockKeysSeenTest {

  private final LockKeysSeen seen = new LockKeysSeen();

  @Test
  void keepsTheKeysOfLockGrantsOnly() {
    seen.on(new Granted(LimitType.LOCK, "accounts", "a-1", Duration.ZERO));
    seen.on(new Granted(LimitType.BULKHEAD, "accounts", null, Duration.ZERO));
    seen.on(new Released(LimitType.LOCK, "accounts", "a-2", Duration.ZERO));
    seen.on(new Granted(LimitType.LOCK, "ledgers", "l-1", Duration.ZERO));

    assertThat(seen.of("accounts")).containsExactly("a-1");
    assertThat(seen.of("ledgers")).containsExactly("l-1");
    assertThat(seen.of("nobody")).isEmpty();
  }

  @Test
  void theLatestGrantComesFirstAndAKeyIsListedOnce() {
    seen.remember("accounts", "a-1");
    seen.remember("accounts", "a-2");
    seen.remember("accounts", "a-1");

    assertThat(seen.of("accounts")).containsExactly("a-1", "a-2");
  }

  @Test
  void keepsTheLatestKeysOnly() {
    IntStream.range(0, LockKeysSeen.KEYS_PER_LOCK + 5)
        .forEach(i -> seen.remember("accounts", "a-" + i));

    assertThat(seen.of("accounts"))
        .hasSize(LockKeysSeen.KEYS_PER_LOCK)
        .startsWith("a-" + (LockKeysSeen.KEYS_PER_LOCK + 4))
        .endsWith("a-5");
  }
}
