package dev.bulwark.cdi;

import dev.bulwark.LockKey;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.Arrays;

/**
 * Which parameters of a locked method form the key, found once per method; several are joined with
 * {@code ':'} in declaration order, none means the whole name is one lock.
 */
final class LockKeys {

  private static final int[] NONE = new int[0];

  private final int[] positions;

  private LockKeys(int[] positions) {
    this.positions = positions;
  }

  static LockKeys of(Method method) {
    Parameter[] parameters = method.getParameters();
    int[] positions = NONE;
    for (int i = 0; i < parameters.length; i++) {
      if (parameters[i].isAnnotationPresent(LockKey.class)) {
        positions = Arrays.copyOf(positions, positions.length + 1);
        positions[positions.length - 1] = i;
      }
    }
    return new LockKeys(positions);
  }

  String keyOf(Object[] arguments) {
    return switch (positions.length) {
      case 0 -> "";
      case 1 -> String.valueOf(arguments[positions[0]]);
      default -> {
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < positions.length; i++) {
          if (i > 0) {
            key.append(':');
          }
          key.append(arguments[positions[i]]);
        }
        yield key.toString();
      }
    };
  }
}
