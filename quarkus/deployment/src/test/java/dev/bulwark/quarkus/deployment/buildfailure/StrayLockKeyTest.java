package dev.bulwark.quarkus.deployment.buildfailure;

import static org.junit.jupiter.api.Assertions.fail;

import dev.bulwark.LockKey;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A {@code @LockKey} on a method no lock guards: the key would silently lock nothing. */
class StrayLockKeyTest {

  @RegisterExtension
  static final QuarkusUnitTest BUILD =
      BuildFailure.expect(
          List.of(Accounts.class),
          "Invalid @LockKey on " + Accounts.class.getName() + "#update",
          "has no @DistributedLock");

  @Test
  void buildFails() {
    fail("the build must fail for a @LockKey without a lock");
  }

  @ApplicationScoped
  public static class Accounts {
    public void update(@LockKey String account) {}
  }
}
