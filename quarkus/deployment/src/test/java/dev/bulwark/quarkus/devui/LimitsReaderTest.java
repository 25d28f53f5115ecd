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

    @DistributedLock(name = "accounts")
    public void deposit(@LockKey String account) {}
  }
}
