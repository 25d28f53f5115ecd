package dev.bulwark.quarkus;

import dev.bulwark.cdi.DeclaredLimits;
import dev.bulwark.cdi.GuardedClasses;
import dev.bulwark.cdi.StoreKeys;
import io.quarkus.arc.BeanCreator;
import io.quarkus.arc.SyntheticCreationalContext;
import java.util.List;

/**
 * Creates the application's declared limits when it starts, from the guarded classes the build
 * found in the Jandex index: the values that depend on runtime config are resolved and checked now,
 * naming method and key (the build already failed for what is wrong whatever the config).
 */
public class DeclaredLimitsFromBuild implements BeanCreator<DeclaredLimits> {

  /** The parameter holding the names of the guarded classes. */
  public static final String CLASSES = "classes";

  @Override
  public DeclaredLimits create(SyntheticCreationalContext<DeclaredLimits> context) {
    return GuardedClasses.declared(
        List.of((String[]) context.getParams().get(CLASSES)),
        Thread.currentThread().getContextClassLoader(),
        StoreKeys.onClassPath());
  }
}
