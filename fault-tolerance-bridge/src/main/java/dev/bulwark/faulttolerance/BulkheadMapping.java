package dev.bulwark.faulttolerance;

import dev.bulwark.cdi.MappedGuarding;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * Decides whether one MicroProfile FT {@code @Bulkhead} is cluster-wide and, if so, declares the
 * Bulwark bulkhead that caps it: one per bean class and method (see {@link MappedNames}), its value
 * the value FT enforces in each JVM, read from FT's own keys only ({@link FtStyleKeys}), failing
 * fast like a synchronous {@code @Bulkhead}. Bulwark's own keys (named, {@code
 * DistributedBulkhead/*}) do not apply: the declaration is settled. A method returning {@code
 * CompletionStage} or {@code Uni} holds its cluster permit until that completes, as Bulwark's
 * interceptor does for every such method; FT's own queue of an {@code @Asynchronous} bulkhead stays
 * per JVM.
 */
final class BulkheadMapping {

  static final String ANNOTATION = "Bulkhead";
  static final String DISTRIBUTED = "bulwark.fault-tolerance.bulkhead.distributed";

  private BulkheadMapping() {}

  /**
   * The declaration, or empty when the bulkhead stays per JVM: not chosen by a {@code distributed}
   * key, or disabled for MicroProfile FT itself.
   *
   * @param method the method as declared; {@code beanClass} may inherit it
   * @param onMethod whether {@code @Bulkhead} sits on the method rather than on the class
   * @throws InvalidDefinitionException naming the method and the key, or a method returning a stage
   *     Bulwark cannot hold until it completes
   */
  static Optional<Mapped> declaration(
      ConfigLookup config, Class<?> beanClass, Method method, boolean onMethod, Bulkhead bulkhead) {
    Origin origin = Origin.of(beanClass, method);
    FtStyleKeys keys =
        new FtStyleKeys(config, ANNOTATION, beanClass, method, onMethod, origin.describe());
    Optional<FtStyleKeys.Found> chosen = keys.distributed(DISTRIBUTED);
    if (!chosen.map(keys::bool).orElse(false) || !keys.enabled()) {
      return Optional.empty();
    }
    if (completesUnheld(method)) {
      throw new InvalidDefinitionException(
          "Cannot make @Bulkhead on "
              + origin.describe()
              + " cluster-wide: it returns "
              + method.getReturnType().getName()
              + ", whose work goes on after the method returns, and Bulwark holds a permit until"
              + " completion only for CompletionStage, CompletableFuture and Uni. Declare one of"
              + " those, or keep this bulkhead per JVM with "
              + keys.perJvmKey());
    }
    Optional<FtStyleKeys.Found> configured = keys.member("value");
    int value = configured.map(keys::positiveInt).orElse(bulkhead.value());
    Map<String, Object> members = new LinkedHashMap<>();
    members.put("name", MappedNames.of(beanClass, method));
    members.put("value", value);
    members.put("waitingTime", 0L);
    List<String> used = new ArrayList<>();
    used.add(chosen.get().key());
    configured.ifPresent(found -> used.add(found.key()));
    Map<String, String> sources = new LinkedHashMap<>();
    configured.ifPresent(found -> sources.put("value", found.key()));
    String name = (String) members.get("name");
    return Optional.of(
        new Mapped(
            LimitDeclaration.settled(
                LimitKind.BULKHEAD, origin, beanClass, method, members, "@" + ANNOTATION, sources),
            new MappedGuarding(
                StageReading.asResult(config, beanClass, method), UnaryOperator.identity()),
            used,
            Mapped.ignoredKeys(config, LimitKind.BULKHEAD, name, keys, List.of("value"))));
  }

  /**
   * A subtype of {@code CompletionStage} other than {@code CompletableFuture}: Bulwark's
   * interceptor reads it as a synchronous result, so the cluster permit would be given back while
   * its work still runs.
   */
  private static boolean completesUnheld(Method method) {
    Class<?> returned = method.getReturnType();
    return CompletionStage.class.isAssignableFrom(returned)
        && returned != CompletionStage.class
        && returned != CompletableFuture.class;
  }
}
