package dev.bulwark.faulttolerance;

import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.core.config.Origin;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * Decides whether one MicroProfile FT {@code @Bulkhead} is cluster-wide and, if so, declares the
 * Bulwark bulkhead that caps it: named {@code <class>#<method>}, its value the bulkhead's effective
 * value after MicroProfile FT's config, failing fast like a synchronous {@code @Bulkhead}.
 */
final class BulkheadMapping {

  static final String ANNOTATION = "Bulkhead";
  static final String DISTRIBUTED = "bulwark.fault-tolerance.bulkhead.distributed";

  private BulkheadMapping() {}

  /**
   * The declaration, or empty when the bulkhead stays per JVM: not chosen by a {@code distributed}
   * key, or disabled for MicroProfile FT itself.
   *
   * @throws InvalidDefinitionException naming the method and the key, or a method whose work goes
   *     on after it returns
   */
  static Optional<Mapped> declaration(
      ConfigLookup config, Class<?> beanClass, Method method, Origin origin, Bulkhead bulkhead) {
    FtStyleKeys keys = new FtStyleKeys(config, ANNOTATION, origin);
    Optional<FtStyleKeys.Found> chosen = keys.find("distributed", DISTRIBUTED);
    if (!chosen.map(keys::bool).orElse(false) || !keys.enabled()) {
      return Optional.empty();
    }
    if (completesLater(method)) {
      throw new InvalidDefinitionException(
          "Cannot make @Bulkhead on "
              + origin.describe()
              + " cluster-wide: it returns "
              + method.getReturnType().getSimpleName()
              + ", and Bulwark's bulkhead holds its permit while the method runs, not until what"
              + " it returns completes. Keep this bulkhead per JVM with "
              + origin.className()
              + "/"
              + origin.methodName()
              + "/Bulkhead/distributed=false");
    }
    Optional<FtStyleKeys.Found> configured = keys.find("value");
    int value = configured.map(found -> positiveInt(keys, found)).orElse(bulkhead.value());
    Map<String, Object> members = new LinkedHashMap<>();
    members.put("name", "");
    members.put("value", value);
    members.put("waitingTime", 0L);
    List<String> used = new ArrayList<>();
    used.add(chosen.get().key());
    configured.ifPresent(found -> used.add(found.key()));
    return Optional.of(
        new Mapped(
            new LimitDeclaration(
                LimitKind.BULKHEAD, origin, beanClass, method, members, "@" + ANNOTATION),
            used));
  }

  /**
   * A method whose work goes on after it returns ({@code CompletionStage}, Mutiny {@code Uni}): the
   * permit would be given back while the work still runs.
   */
  private static boolean completesLater(Method method) {
    Class<?> returned = method.getReturnType();
    return CompletionStage.class.isAssignableFrom(returned)
        || returned.getName().equals("io.smallrye.mutiny.Uni");
  }

  static int positiveInt(FtStyleKeys keys, FtStyleKeys.Found found) {
    if (!found.raw().chars().allMatch(Character::isDigit)) {
      throw keys.invalid(found, "is not a whole number");
    }
    try {
      int value = Integer.parseInt(found.raw());
      if (value > 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      throw keys.invalid(found, "is not a whole number");
    }
    throw keys.invalid(found, "must be greater than 0");
  }
}
