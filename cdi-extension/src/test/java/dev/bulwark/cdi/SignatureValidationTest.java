package dev.bulwark.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.LockKey;
import dev.bulwark.LockMode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DefinitionException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The rules on a guarded method's signature, on Weld (the portable extension): the same
 * GuardedSignatures the Quarkus extension applies at build time.
 */
class SignatureValidationTest {

  @ApplicationScoped
  public static class FutureReport {
    @DistributedBulkhead(name = "reports", value = 2)
    public Future<String> render() {
      return CompletableFuture.completedFuture("report");
    }
  }

  @ApplicationScoped
  public static class StrayKey {
    @DistributedBulkhead(name = "accounts-bulkhead", value = 2)
    public void update(@LockKey String account) {}
  }

  @ApplicationScoped
  public static class KeyedAndWhole {
    @DistributedLock(name = "ledger")
    public void post(@LockKey String account) {}

    @DistributedLock(name = "ledger", mode = LockMode.READ)
    public void audit() {}
  }

  @ApplicationScoped
  public static class Holdable {
    @DistributedLock(name = "books")
    public CompletableFuture<String> post(@LockKey String account, @LockKey int page) {
      return CompletableFuture.completedFuture(account + page);
    }

    @DistributedLock(name = "books", mode = LockMode.READ)
    public String read(@LockKey String account) {
      return account;
    }
  }

  @Test
  void aFutureReturnFailsTheDeploymentNamingTheMethod() {
    assertThatThrownBy(() -> WeldContainers.withContainer(Map.of(), c -> null, FutureReport.class))
        .isInstanceOf(DefinitionException.class)
        .hasMessageContaining("@DistributedBulkhead on " + FutureReport.class.getName() + "#render")
        .hasMessageContaining("return type java.util.concurrent.Future cannot be held");
  }

  @Test
  void aLockKeyWithoutALockFailsTheDeployment() {
    assertThatThrownBy(() -> WeldContainers.withContainer(Map.of(), c -> null, StrayKey.class))
        .isInstanceOf(DefinitionException.class)
        .hasMessageContaining("Invalid @LockKey on " + StrayKey.class.getName() + "#update");
  }

  @Test
  void oneLockNameKeyedAndWholeFailsTheDeployment() {
    assertThatThrownBy(() -> WeldContainers.withContainer(Map.of(), c -> null, KeyedAndWhole.class))
        .isInstanceOf(DefinitionException.class)
        .hasMessageContaining("Invalid @DistributedLock 'ledger'")
        .hasMessageContaining(KeyedAndWhole.class.getName() + "#post locks one key")
        .hasMessageContaining(KeyedAndWhole.class.getName() + "#audit locks the whole name");
  }

  @Test
  void keyedLocksWithStagesDeploy() throws Exception {
    String read =
        WeldContainers.withContainer(
            Map.of(), c -> c.select(Holdable.class).get().read("alice"), Holdable.class);
    assertThat(read).isEqualTo("alice");
  }
}
