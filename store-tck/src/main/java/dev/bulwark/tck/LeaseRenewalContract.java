package dev.bulwark.tck;

import static dev.bulwark.tck.LockStoreContract.lockLease;
import static dev.bulwark.tck.PermitStoreContract.permitLease;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockMode;
import dev.bulwark.spi.BulwarkStore;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Lease;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.PermitSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The promises of {@link BulwarkStore#renew}: a renewed lease, held or queued, lives on past its
 * original end; renewal extends to the lease given, from the store's now; it returns exactly the
 * leases the store no longer knows (expired and reclaimed, or released). A queued request that is
 * not renewed drops out of the queue within its lease, while a renewed one keeps its place.
 *
 * <p>A store whose leases never expire is never asked to renew (the engine tracks no leases for
 * it), so every test here is skipped for it.
 */
public abstract class LeaseRenewalContract extends StoreContract {

  private static final String NAME = "tck-renewed";
  private static final String KEY = "account-7";

  @Test
  public void renewedHoldersOutliveTheirLease() throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    PermitSpec permitSpec = new PermitSpec(NAME, 1, lease.toMillis());
    LockSpec lockSpec = new LockSpec(NAME, lease.toMillis());
    long permit = jvm.newRequestId();
    long writer = jvm.newRequestId();
    long reader = jvm.newRequestId();
    long start = System.nanoTime();
    assertThat(jvm.permits().acquire(permitSpec, permit, false)).isEqualTo(Grant.GRANTED);
    assertThat(jvm.locks().acquire(lockSpec, KEY, LockMode.WRITE, writer, false).isGranted())
        .isTrue();
    assertThat(jvm.locks().acquire(lockSpec, "other", LockMode.READ, reader, false).isGranted())
        .isTrue();
    List<Lease> held =
        List.of(
            permitLease(permitSpec, permit),
            lockLease(lockSpec, KEY, writer),
            lockLease(lockSpec, "other", reader));
    assumeNoStallSince(start, lease);

    try (LeaseKeeper keeper = new LeaseKeeper(jvm.store(), held, lease, start)) {
      fixture().letPass(lease.multipliedBy(5).dividedBy(2));
      List<Grant> competitors =
          List.of(
              jvm.permits().acquire(permitSpec, jvm.newRequestId(), false),
              jvm.locks().acquire(lockSpec, KEY, LockMode.READ, jvm.newRequestId(), false),
              jvm.locks().acquire(lockSpec, "other", LockMode.WRITE, jvm.newRequestId(), false));
      assumeRenewedInTime(keeper, lease);
      assertThat(competitors).containsOnly(Grant.REJECTED);
      assertThat(keeper.lost()).isEmpty();
    }
  }

  @Test
  public void renewalExtendsToTheLeaseItNamesFromNow() throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    PermitSpec spec = new PermitSpec(NAME, 1, lease.toMillis());
    long holder = jvm.newRequestId();
    long start = System.nanoTime();
    Grant held = jvm.permits().acquire(spec, holder, false);
    Lease longer = new Lease(Lease.Kind.PERMIT, NAME, "", holder, LONG_LEASE_MILLIS);
    List<Lease> lostRightAway = jvm.store().renew(List.of(longer));
    assumeNoStallSince(start, lease);
    assertThat(held).isEqualTo(Grant.GRANTED);
    assertThat(lostRightAway).isEmpty();

    fixture().letPass(lease.multipliedBy(2));
    assertThat(jvm.permits().acquire(spec, jvm.newRequestId(), false)).isEqualTo(Grant.REJECTED);
    assertThat(jvm.store().renew(List.of(longer))).isEmpty();
  }

  @Test
  public void renewalReturnsExactlyTheLeasesTheStoreNoLongerKnows() throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    PermitSpec spec = new PermitSpec(NAME, 5, lease.toMillis());
    LockSpec lockSpec = new LockSpec(NAME, lease.toMillis());
    long expired = jvm.newRequestId();
    long released = jvm.newRequestId();
    long expiredWriter = jvm.newRequestId();
    long releasedReader = jvm.newRequestId();
    assertThat(jvm.permits().acquire(spec, expired, false)).isEqualTo(Grant.GRANTED);
    assertThat(jvm.permits().acquire(spec, released, false)).isEqualTo(Grant.GRANTED);
    assertThat(jvm.locks().acquire(lockSpec, KEY, LockMode.WRITE, expiredWriter, false).isGranted())
        .isTrue();
    assertThat(
            jvm.locks()
                .acquire(lockSpec, "other", LockMode.READ, releasedReader, false)
                .isGranted())
        .isTrue();
    jvm.permits().release(spec, released);
    jvm.locks().release(lockSpec, "other", releasedReader);
    letLeasePass(lease);

    long live = jvm.newRequestId();
    long liveReader = jvm.newRequestId();
    long start = System.nanoTime();
    assertThat(jvm.permits().acquire(spec, live, false)).isEqualTo(Grant.GRANTED);
    assertThat(jvm.locks().acquire(lockSpec, "other", LockMode.READ, liveReader, false).isGranted())
        .isTrue();
    Lease unknown = new Lease(Lease.Kind.PERMIT, NAME, "", 424_242, lease.toMillis());
    List<Lease> lost =
        jvm.store()
            .renew(
                List.of(
                    permitLease(spec, expired),
                    permitLease(spec, live),
                    permitLease(spec, released),
                    lockLease(lockSpec, KEY, expiredWriter),
                    lockLease(lockSpec, "other", liveReader),
                    lockLease(lockSpec, "other", releasedReader),
                    unknown));
    assumeNoStallSince(start, lease);
    assertThat(lost)
        .containsExactlyInAnyOrder(
            permitLease(spec, expired),
            permitLease(spec, released),
            lockLease(lockSpec, KEY, expiredWriter),
            lockLease(lockSpec, "other", releasedReader),
            unknown);
  }

  @Test
  public void aQueuedRequestNotRenewedDropsOutWhileARenewedOneKeepsItsPlace()
      throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    PermitSpec spec = new PermitSpec(NAME, 1, lease.toMillis());
    long holder = jvm.newRequestId();
    long abandoned = jvm.newRequestId();
    long waiting = jvm.newRequestId();
    long start = System.nanoTime();
    List<Grant> setUp =
        List.of(
            jvm.permits().acquire(spec, holder, false),
            jvm.permits().acquire(spec, abandoned, true),
            jvm.permits().acquire(spec, waiting, true));
    assumeNoStallSince(start, lease);
    assertThat(setUp).containsExactly(Grant.GRANTED, Grant.QUEUED, Grant.QUEUED);

    try (LeaseKeeper keeper =
        new LeaseKeeper(
            jvm.store(),
            List.of(permitLease(spec, holder), permitLease(spec, waiting)),
            lease,
            start)) {
      fixture().letPass(lease.multipliedBy(2));
      Grant stillWaiting = jvm.permits().poll(spec, waiting);
      jvm.permits().release(spec, holder);
      List<Long> handedOver = jvm.handedOverRequests();
      Grant abandonedNow = jvm.permits().poll(spec, abandoned);
      assumeRenewedInTime(keeper, lease);
      assertThat(stillWaiting).isEqualTo(Grant.QUEUED);
      assertThat(handedOver).containsExactly(waiting);
      assertThat(abandonedNow).isEqualTo(Grant.REJECTED);
      // the released holder may be reported lost by a renewal after its release
      assertThat(keeper.lost()).isSubsetOf(permitLease(spec, holder));
    }
    assertThat(jvm.store().renew(List.of(permitLease(spec, abandoned))))
        .containsExactly(permitLease(spec, abandoned));
  }

  @Test
  public void aQueuedRequestWhoseLeaseRanOutIsReportedLostAndNoLongerQueued()
      throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    PermitSpec permitSpec = new PermitSpec(NAME, 1, LONG_LEASE_MILLIS);
    PermitSpec queuedSpec = new PermitSpec(NAME, 1, lease.toMillis());
    LockSpec lockSpec = new LockSpec(NAME, LONG_LEASE_MILLIS);
    LockSpec queuedLockSpec = new LockSpec(NAME, lease.toMillis());
    long holder = jvm.newRequestId();
    long writer = jvm.newRequestId();
    long queued = jvm.newRequestId();
    long queuedReader = jvm.newRequestId();
    assertThat(jvm.permits().acquire(permitSpec, holder, false)).isEqualTo(Grant.GRANTED);
    assertThat(jvm.permits().acquire(queuedSpec, queued, true)).isEqualTo(Grant.QUEUED);
    assertThat(jvm.locks().acquire(lockSpec, KEY, LockMode.WRITE, writer, false).isGranted())
        .isTrue();
    assertThat(jvm.locks().acquire(queuedLockSpec, KEY, LockMode.READ, queuedReader, true))
        .isEqualTo(Grant.QUEUED);

    letLeasePass(lease);
    // what renew says and what poll says agree: the request is out of the queue
    assertThat(
            jvm.store()
                .renew(
                    List.of(
                        permitLease(queuedSpec, queued),
                        lockLease(queuedLockSpec, KEY, queuedReader))))
        .hasSize(2);
    assertThat(jvm.permits().poll(queuedSpec, queued)).isEqualTo(Grant.REJECTED);
    assertThat(jvm.locks().poll(queuedLockSpec, KEY, queuedReader)).isEqualTo(Grant.REJECTED);
  }

  @Test
  public void aQueuedLockRequestNotRenewedDropsOutWhileARenewedOneKeepsItsPlace()
      throws InterruptedException {
    Duration lease = shortLease();
    StoreJvm jvm = jvm();
    LockSpec spec = new LockSpec(NAME, lease.toMillis());
    long writer = jvm.newRequestId();
    long abandonedWriter = jvm.newRequestId();
    long reader = jvm.newRequestId();
    long start = System.nanoTime();
    Grant first = jvm.locks().acquire(spec, KEY, LockMode.WRITE, writer, false);
    Grant queuedWriter = jvm.locks().acquire(spec, KEY, LockMode.WRITE, abandonedWriter, true);
    Grant queuedReader = jvm.locks().acquire(spec, KEY, LockMode.READ, reader, true);
    assumeNoStallSince(start, lease);
    assertThat(first.isGranted()).isTrue();
    assertThat(queuedWriter).isEqualTo(Grant.QUEUED);
    assertThat(queuedReader).isEqualTo(Grant.QUEUED);

    try (LeaseKeeper keeper =
        new LeaseKeeper(
            jvm.store(),
            List.of(lockLease(spec, KEY, writer), lockLease(spec, KEY, reader)),
            lease,
            start)) {
      fixture().letPass(lease.multipliedBy(2));
      Grant stillWaiting = jvm.locks().poll(spec, KEY, reader);
      jvm.locks().release(spec, KEY, writer);
      List<HandOver> handedOver = jvm.handOvers();
      Grant abandonedNow = jvm.locks().poll(spec, KEY, abandonedWriter);
      assumeRenewedInTime(keeper, lease);
      assertThat(stillWaiting).isEqualTo(Grant.QUEUED);
      // the abandoned writer no longer holds the reader back
      assertThat(handedOver).containsExactly(new HandOver(reader, first.fencingToken()));
      assertThat(abandonedNow).isEqualTo(Grant.REJECTED);
      assertThat(keeper.lost()).isSubsetOf(lockLease(spec, KEY, writer));
    }
  }
}
