package dev.bulwark.tck;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Sets how many tries a property runs: its own count (from {@code @Property(tries = …)}, or from
 * {@link StoreProperties#tries()} for a store's properties), times the factor given by {@code
 * -Dbulwark.properties.scale} (1 by default). The default run stays short; a longer one is {@code
 * -Dbulwark.properties.scale=20}.
 */
public final class PropertyTries implements AroundPropertyHook {

  /** The system property that scales every property's tries. */
  public static final String SCALE = "bulwark.properties.scale";

  @Override
  public PropertyExecutionResult aroundProperty(
      PropertyLifecycleContext context, PropertyExecutor property) {
    int tries =
        context.testInstance() instanceof StoreProperties store
            ? store.tries()
            : context.attributes().tries().orElse(1000);
    context.attributes().setTries(Math.max(1, tries * scale()));
    return property.execute();
  }

  static int scale() {
    String value = System.getProperty(SCALE, "1").trim();
    try {
      int scale = Integer.parseInt(value);
      if (scale > 0) {
        return scale;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "-D" + SCALE + "=" + value + " is not a positive whole number");
  }
}
