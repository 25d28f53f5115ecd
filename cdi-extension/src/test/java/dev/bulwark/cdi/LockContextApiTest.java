package dev.bulwark.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockContext;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** User code can read what the thread holds, and change nothing. */
class LockContextApiTest {

  @Test
  void lockContextOffersReadersOnly() {
    assertThat(
            Arrays.stream(LockContext.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()))
                .map(Method::getName)
                .distinct()
                .sorted())
        .containsExactly("current", "fencingToken", "isHeld");
    assertThat(LockContext.class.getConstructors()).isEmpty();
  }

  @Test
  void aThreadWithoutLocksHoldsNothing() {
    assertThat(LockContext.isHeld()).isFalse();
    assertThat(LockContext.current()).isEmpty();
  }
}
