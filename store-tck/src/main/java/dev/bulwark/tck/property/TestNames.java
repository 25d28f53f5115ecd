package dev.bulwark.tck.property;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Tells {@link Property} which test runs it, as {@code -Dtest} names it: a property declared in an
 * abstract suite (a store's properties) runs in a subclass the call stack does not show. A suite
 * registers it with {@code @ExtendWith(TestNames.class)}; without it the report names the class
 * that declares the test method.
 */
public final class TestNames implements BeforeEachCallback, AfterEachCallback {

  private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

  @Override
  public void beforeEach(ExtensionContext context) {
    CURRENT.set(
        context.getRequiredTestClass().getSimpleName()
            + "#"
            + context.getRequiredTestMethod().getName());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    CURRENT.remove();
  }

  /** The running test as {@code Class#method}, or null when no suite registered this. */
  static String current() {
    return CURRENT.get();
  }
}
