package dev.bulwark.redis.modelcheck;

import dev.bulwark.redis.ModelCheckJvm;
import dev.bulwark.redis.ModelCheckSeam;
import dev.bulwark.spi.Grant;
import dev.bulwark.tck.modelcheck.BatchEntry;
import dev.bulwark.tck.modelcheck.Bounds;
import dev.bulwark.tck.modelcheck.Caller;
import dev.bulwark.tck.modelcheck.CheckedLimit;
import dev.bulwark.tck.modelcheck.GiveUp;
import dev.bulwark.tck.modelcheck.StoreContents;
import dev.bulwark.tck.modelcheck.StoreDriver;
import dev.bulwark.tck.modelcheck.WakeUp;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The system under check: one bulkhead or one lock key of the Redis store, used by the scenario's
 * JVMs through the store's own classes. Requests are named by their position in the scenario.
 */
final class RedisStoreDriver implements StoreDriver {

  private final Bounds bounds;
  private final ModelCheckSeam seam;
  private final List<ModelCheckJvm> jvms = new ArrayList<>();
  private final List<String> instances = new ArrayList<>();
  private final List<String> keys;
  private final CheckedLimit limit;

  /** The hand-overs the JVMs were told from batch replies, drained by the last {@link #read}. */
  private List<WakeUp> toldFromReplies = List.of();

  RedisStoreDriver(Bounds bounds, ModelCheckSeam seam) {
    this.bounds = bounds;
    this.seam = seam;
    for (int jvm = 0; jvm < bounds.jvms(); jvm++) {
      String instance = String.format("%016x", 0xa0L + jvm);
      instances.add(instance);
      jvms.add(seam.jvm(instance));
    }
    this.keys =
        new ArrayList<>(
            bounds.isLock()
                ? seam.lockKeys(CheckedLimit.NAME, CheckedLimit.KEY)
                : seam.bulkheadKeys(CheckedLimit.NAME));
    keys.add(seam.wakeUpList());
    this.limit = new CheckedLimit(bounds);
  }

  /** The store's name for a request: its JVM's instance id and its request id. */
  @Override
  public String member(int request) {
    return instances.get(bounds.requests().get(request).jvm()) + ":" + (request + 1);
  }

  @Override
  public Grant acquire(int request) {
    return limit.acquire(jvm(request).permits(), jvm(request).locks(), request);
  }

  @Override
  public Grant poll(int request) {
    return limit.poll(jvm(request).permits(), jvm(request).locks(), request);
  }

  @Override
  public Grant cancel(int request) {
    return limit.cancel(jvm(request).permits(), jvm(request).locks(), request);
  }

  @Override
  public boolean release(int request) {
    return limit.release(jvm(request).permits(), jvm(request).locks(), request);
  }

  /** Runs {@code operation} of {@code request}, losing its reply; the store's give-up, unrun. */
  @Override
  public Optional<GiveUp> losingReply(int request, Caller.Operation operation) {
    Supplier<?> call = call(request, operation);
    return jvm(request).loseReplyOf(call).map(GiveUp.class::cast);
  }

  /** Through the store's batch call, {@code RedisPermits.apply} or {@code RedisLocks.apply}. */
  @Override
  public List<Grant> apply(List<BatchEntry> entries) {
    ModelCheckJvm jvm = jvm(entries.get(0).request());
    return limit.apply(jvm.permits(), jvm.locks(), entries);
  }

  @Override
  public int batchSteps(List<BatchEntry> entries) {
    ModelCheckJvm jvm = jvm(entries.get(0).request());
    return limit.batchSteps(jvm.permits(), jvm.locks(), entries);
  }

  /** Runs the batch, losing the reply of its script call number {@code step}. */
  @Override
  public Optional<GiveUp> applyLosingReply(List<BatchEntry> entries, int step) {
    return jvm(entries.get(0).request())
        .loseReplyOf(() -> apply(entries), step)
        .map(GiveUp.class::cast);
  }

  /** The give-up {@code RedisCalls.runBatchOrGiveUp} sends after the batch script's lost reply. */
  @Override
  public Optional<GiveUp> giveUpAfterLosing(List<BatchEntry> entries) {
    return jvm(entries.get(0).request()).giveUpOf(() -> apply(entries)).map(GiveUp.class::cast);
  }

  @Override
  public void giveUp(int request, GiveUp giveUp) {
    jvm(request).run((ModelCheckJvm.GiveUp) giveUp);
  }

  /** A Cluster client sends a call again after a lost reply. */
  @Override
  public boolean resendsLostCalls() {
    return true;
  }

  /** Renews the given requests of one JVM in one batch; returns those the store reports lost. */
  @Override
  public List<Integer> renew(int jvm, List<Integer> requests) {
    return CheckedLimit.requests(jvms.get(jvm).renew(limit.leases(requests)));
  }

  /**
   * Reads the store's contents and drains the wake-ups sent since the last read: those the JVMs
   * were told from a batch's reply first, then those published.
   */
  @Override
  public StoreContents read() {
    toldFromReplies = new ArrayList<>();
    for (int jvm = 0; jvm < jvms.size(); jvm++) {
      for (ModelCheckJvm.Told told : jvms.get(jvm).drainTold()) {
        int request = (int) told.requestId() - 1;
        if (request < 0
            || request >= bounds.requests().size()
            || bounds.requests().get(request).jvm() != jvm) {
          throw new AssertionError("JVM " + jvm + " was told of request " + told.requestId());
        }
        toldFromReplies.add(new WakeUp(request, told.token()));
      }
    }
    return RedisStoreContents.fromReply(
        seam.redis().eval(RedisStoreContents.READ, keys, List.of()));
  }

  @Override
  public StoreContents empty() {
    return RedisStoreContents.EMPTY;
  }

  /** Puts the store back as {@code contents} at {@code nowMillis}. */
  @Override
  public void restore(StoreContents contents, long nowMillis) {
    jvms.forEach(ModelCheckJvm::drainTold);
    toldFromReplies = List.of();
    List<String> writeKeys = new ArrayList<>(keys);
    writeKeys.add(seam.clockKey());
    seam.redis()
        .eval(
            RedisStoreContents.WRITE,
            writeKeys,
            ((RedisStoreContents) contents).writeArgs(nowMillis * 1000));
  }

  /** Deletes one key, as its expiry would. */
  @Override
  public void expire(String structure) {
    seam.redis()
        .del(
            keys.get(
                RedisStoreContents.Structure.valueOf(structure.toUpperCase(Locale.ROOT))
                    .ordinal()));
  }

  @Override
  public void setClock(long nowMillis) {
    seam.setClockMillis(nowMillis);
  }

  long clock() {
    return seam.clockMillis();
  }

  /**
   * The wake-ups of the last step: those told from a batch's reply, then those in {@code contents},
   * by request: notice '<request>:<token>:<mac>'. One told from a reply cannot be lost on its way,
   * but the check may still drop it: a waiter that never hears it must learn by polling, which only
   * adds schedules.
   */
  @Override
  public List<WakeUp> wakeUps(StoreContents contents) {
    List<WakeUp> wakeUps = new ArrayList<>(toldFromReplies);
    List<String> sent = ((RedisStoreContents) contents).wakeUps();
    for (int i = 0; i + 1 < sent.size(); i += 2) {
      String channel = sent.get(i);
      String[] notice = sent.get(i + 1).split(":");
      int request = Integer.parseInt(notice[0]) - 1;
      if (!channel.equals(
          seam.wakeUpChannel(instances.get(bounds.requests().get(request).jvm())))) {
        throw new AssertionError("wake-up of request " + (request + 1) + " sent to " + channel);
      }
      wakeUps.add(new WakeUp(request, Long.parseLong(notice[1])));
    }
    return wakeUps;
  }

  /** The request a member of this scenario names, or -1. */
  @Override
  public int requestOf(String member) {
    for (int r = 0; r < bounds.requests().size(); r++) {
      if (member(r).equals(member)) {
        return r;
      }
    }
    return -1;
  }

  private ModelCheckJvm jvm(int request) {
    return jvms.get(bounds.requests().get(request).jvm());
  }
}
