package dev.bulwark.quarkus.devui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.LockKey;
import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.event.Granted;
import dev.bulwark.event.LimitType;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the Dev UI page gets from a running application: each limit once, with every declaration's
 * effective values and the key each came from, a disabled one with the key that disabled it, and
 * the store's state of each enforced one.
 */
class LimitsReaderTest {

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .withApplicationRoot(archive -> archive.addClasses(Guarded.class))
          .overrideConfigKey("bulwark.bulkhead.reports.value", "4")
          .overrideConfigKey("bulwark.rate-limit.off.enabled", "false");

  @Inject BulwarkRuntime runtime;
  @Inject Guarded guarded;

  @Test
  void everyLimitWithItsValuesTheirKeysAndItsState() {
    LimitsPage page = new LimitsReader(runtime.engine(), null).page();

    assertThat(page.store()).isEqualTo("local");
    assertThat(page.enabled()).isTrue();
    assertThat(page.limits())
        .extracting(LimitView::kind, LimitView::name)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("bulkhead", "reports"),
            org.assertj.core.groups.Tuple.tuple("bulkhead", "single"),
            org.assertj.core.groups.Tuple.tuple("rate-limit", "off"),
            org.assertj.core.groups.Tuple.tuple("lock", "accounts"));

    LimitView reports = limit(page, "reports");
    assertThat(reports.declarations())
        .extracting(DeclarationView::on)
        .containsExactlyInAnyOrder(
            Guarded.class.getName() + "#daily", Guarded.class.getName() + "#weekly");
    assertThat(reports.declarations().get(0).members())
        .contains(
            new MemberView("value", "4", "bulwark.bulkhead.reports.value"),
            new MemberView("lease", "30s", "annotation"));
    assertThat(reports.live().limit()).isEqualTo(4);
    assertThat(reports.live().available()).isEqualTo(4);
    assertThat(reports.live().holders()).isEmpty();
    assertThat(reports.live().error()).isNull();

    LimitView off = limit(page, "off");
    assertThat(off.declarations().get(0).disabledBy()).isEqualTo("bulwark.rate-limit.off.enabled");
    assertThat(off.live()).as("a disabled limit is not read from the store").isNull();
  }

  @Test
  void aLockShowsTheKeysItWasGivenAndAnyKeyOnRequest() {
    guarded.deposit("acct-1");
    LockKeysSeen seen = new LockKeysSeen();
    seen.on(new Granted(LimitType.LOCK, "accounts", "acct-1", Duration.ZERO));
    LimitsReader reader = new LimitsReader(runtime.engine(), seen);

    List<LockKeyView> keys = limit(reader.page(), "accounts").live().keys();
    assertThat(keys).extracting(LockKeyView::key).containsExactly("acct-1");
    assertThat(keys.get(0).writer()).as("released").isNull();

    assertThat(reader.lockKey("accounts", "acct-2").key()).isEqualTo("acct-2");
    assertThatThrownBy(() -> reader.lockKey("nobody", "k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'nobody'");
  }

  @Test
  void aBulkheadListsItsQueueLikeItsHolders() throws InterruptedException {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder = new Thread(() -> guarded.single(entered, release));
    holder.start();
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    CountDownLatch waiterEntered = new CountDownLatch(1);
    Thread waiter = new Thread(() -> guarded.single(waiterEntered, release));
    waiter.start();
    try {
      LimitsReader reader = new LimitsReader(runtime.engine(), null);
      LiveState live = limit(reader.page(), "single").live();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (live.queued() == 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
        live = limit(reader.page(), "single").live();
      }
      assertThat(live.queued()).isEqualTo(1);
      assertThat(live.holders()).hasSize(1);
      assertThat(live.waiting()).hasSize(1);
      HolderView waiting = live.waiting().get(0);
      assertThat(waiting.jvm()).isEqualTo(live.holders().get(0).jvm());
      assertThat(waiting.request()).isNotEqualTo(live.holders().get(0).request());
      assertThat(waiting.since()).as("the local store records when it queued").isNotNull();
    } finally {
      release.countDown();
      holder.join(10_000);
      waiter.join(10_000);
    }
    assertThat(waiterEntered.getCount()).as("the waiter was handed the permit").isZero();
    assertThat(limit(new LimitsReader(runtime.engine(), null).page(), "single").live().waiting())
        .isEmpty();
  }

  private static LimitView limit(LimitsPage page, String name) {
    return page.limits().stream().filter(l -> l.name().equals(name)).findFirst().orElseThrow();
  }

  @ApplicationScoped
  public static class Guarded {
    @DistributedBulkhead(name = "reports", value = 2)
    public void daily() {}

    @DistributedBulkhead(name = "reports", value = 2, waitingTime = 100)
    public void weekly() {}

    @DistributedRateLimit(name = "off", value = 5)
    public void limited() {}

    @DistributedBulkhead(name = "single", value = 1, waitingTime = 30_000)
    public void single(CountDownLatch entered, CountDownLatch release) {
      entered.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @DistributedLock(name = "accounts")
    public void deposit(@LockKey String account) {}
  }
}
