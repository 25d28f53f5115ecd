package dev.bulwark.quarkus.deployment.buildfailure;

import static org.junit.jupiter.api.Assertions.fail;

import dev.bulwark.DistributedLock;
import dev.bulwark.LockKey;
import dev.bulwark.LockMode;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One lock name locked by key on one method and whole on another: they never exclude each other.
 */
class KeyedAndWholeLockTest {

  @RegisterExtension
  static final QuarkusUnitTest BUILD =
      BuildFailure.expect(
          List.of(Accounts.class),
          "Invalid @DistributedLock 'accounts'",
          Accounts.class.getName() + "#update locks one key of it with @LockKey",
          Accounts.class.getName() + "#audit locks the whole name");

  @Test
  void buildFails() {
    fail("the build must fail for one lock name used with and without a key");
  }

  @ApplicationScoped
  public static class Accounts {
    @DistributedLock(name = "accounts")
    public void update(@LockKey String account) {}

    @DistributedLock(name = "accounts", mode = LockMode.READ)
    public void audit() {}
  }
}
