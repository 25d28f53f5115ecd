package dev.bulwark.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.Holder;
import dev.bulwark.LockMode;
import dev.bulwark.RateLimitType;
import dev.bulwark.jpa.setup.JpaSettings;
import dev.bulwark.jpa.setup.StoreUnit;
import dev.bulwark.jpa.tx.ResourceLocalUnitOfWork;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.RateDecision;
import dev.bulwark.spi.RateSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A batch of operations on one limit is one transaction (counted as the store begins them), and
 * answers what the same operations sent one at a time in that order answer, each one transaction:
 * the same grants, queue positions, fencing tokens and hand-overs told to this JVM's listener.
 */
class BatchTransactionsTest {

  private static final long LEASE = 60_000;

  @ParameterizedTest
  @EnumSource(TestDatabase.class)
  void aBulkheadBatchIsOneTransactionAndAnswersAsSingleCalls(TestDatabase database) {
    List<Operation> operations =
        List.of(
            Operation.acquire(1, false),
            Operation.acquire(2, true),
            Operation.acquire(3, true),
            Operation.acquire(4, false),
            Operation.acquire(5, true),
            Operation.poll("", 3),
            Operation.release("", 1), // hands over to 3
            Operation.poll("", 3),
            Operation.cancel("", 5),
            Operation.acquire(6, true),
            Operation.release("", 2), // hands over to 6
            Operation.release("", 2),
            Operation.cancel("", 6),
            Operation.acquire(1, false),
            Operation.release("", 3),
            Operation.acquire(7, false));
    List<Grant> expected =
        List.of(
            Grant.GRANTED,
            Grant.GRANTED,
            Grant.QUEUED,
            Grant.REJECTED,
            Grant.QUEUED,
            Grant.QUEUED,
            Grant.GRANTED,
            Grant.GRANTED,
            Grant.REJECTED,
            Grant.QUEUED,
            Grant.GRANTED,
            Grant.REJECTED,
            Grant.GRANTED,
            Grant.REJECTED,
            Grant.GRANTED,
            Grant.GRANTED);
    try (Counted counted = Counted.open(database)) {
      PermitSpec batched = new PermitSpec("batched", 2, LEASE);
      PermitSpec single = new PermitSpec("single", 2, LEASE);
      counted.store.permits().define(batched);
      counted.store.permits().define(single);
      counted.transactions.taken();

      List<Grant> batchAnswers = counted.store.permits().apply(batched, operations);
      assertThat(counted.transactions.taken()).as("transactions of the batch").isEqualTo(1);
      List<Long> batchTold = counted.takeTold();

      List<Grant> singleAnswers = new ArrayList<>();
      for (Operation operation : operations) {
        singleAnswers.add(one(counted.store, single, operation));
      }
      assertThat(counted.transactions.taken())
          .as("transactions of the single calls")
          .isEqualTo(operations.size());

      assertThat(batchAnswers).isEqualTo(expected).isEqualTo(singleAnswers);
      assertThat(batchTold)
          .as("hand-overs told to the listener")
          .containsExactly(3L, 6L)
          .isEqualTo(counted.takeTold());
      BulkheadSnapshot batchedLeft = counted.store.permits().inspect(batched);
      BulkheadSnapshot singleLeft = counted.store.permits().inspect(single);
      assertThat(batchedLeft.holders().stream().map(Holder::request).sorted())
          .as("holders left")
          .containsExactly(6L, 7L)
          .isEqualTo(singleLeft.holders().stream().map(Holder::request).sorted().toList());
      assertThat(batchedLeft.queued()).isZero().isEqualTo(singleLeft.queued());
    }
  }

  @ParameterizedTest
  @EnumSource(TestDatabase.class)
  void aLockBatchOnSeveralKeysIsOneTransactionWithTheTokensOfSingleCalls(TestDatabase database) {
    List<Operation> operations =
        List.of(
            Operation.acquire("a", LockMode.WRITE, 1, false),
            Operation.acquire("b", LockMode.READ, 2, false),
            Operation.acquire("a", LockMode.READ, 3, true),
            Operation.acquire("c", LockMode.WRITE, 4, false),
            Operation.acquire("b", LockMode.WRITE, 5, false),
            Operation.release("a", 1), // hands a over to reader 3
            Operation.poll("a", 3),
            Operation.acquire("b", LockMode.WRITE, 6, true),
            Operation.release("b", 2), // hands b over to writer 6
            Operation.poll("b", 6),
            Operation.acquire("a", LockMode.WRITE, 7, false),
            Operation.release("c", 4),
            // c has no rows left: a reader carries the name's latest token, not c's last
            Operation.acquire("c", LockMode.READ, 8, false),
            Operation.cancel("b", 6),
            Operation.release("b", 6),
            Operation.acquire("b", LockMode.READ, 9, false));
    try (Counted counted = Counted.open(database)) {
      LockSpec batched = new LockSpec("batched", LEASE);
      LockSpec single = new LockSpec("single", LEASE);
      // both names' rows exist, with the same counters
      counted.store.locks().release(batched, "a", 0);
      counted.store.locks().release(single, "a", 0);
      counted.transactions.taken();

      List<Grant> batchAnswers = counted.store.locks().apply(batched, operations);
      assertThat(counted.transactions.taken()).as("transactions of the batch").isEqualTo(1);
      List<Long> batchTold = counted.takeTold();

      List<Grant> singleAnswers = new ArrayList<>();
      for (Operation operation : operations) {
        singleAnswers.add(one(counted.store, single, operation));
      }
      assertThat(counted.transactions.taken()).isEqualTo(operations.size());

      long t = batchAnswers.get(0).fencingToken();
      assertThat(t).isPositive();
      assertThat(batchAnswers)
          .isEqualTo(
              List.of(
                  Grant.granted(t),
                  Grant.granted(t),
                  Grant.QUEUED,
                  Grant.granted(t + 1),
                  Grant.REJECTED,
                  Grant.GRANTED,
                  Grant.granted(t),
                  Grant.QUEUED,
                  Grant.GRANTED,
                  Grant.granted(t + 2),
                  Grant.REJECTED,
                  Grant.GRANTED,
                  Grant.granted(t + 2),
                  Grant.granted(t + 2),
                  Grant.GRANTED,
                  Grant.granted(t + 2)));
      // a new name's counter starts from the clock: the single calls' tokens from their own first
      long s = singleAnswers.get(0).fencingToken();
      assertThat(relative(singleAnswers, s)).isEqualTo(relative(batchAnswers, t));
      assertThat(batchTold).containsExactly(3L, 6L).isEqualTo(counted.takeTold());
      // the name's counter moved as the single calls moved theirs: the next write takes t + 3
      assertThat(counted.store.locks().acquire(batched, "z", LockMode.WRITE, 10, false))
          .isEqualTo(Grant.granted(t + 3));
      assertThat(counted.store.locks().acquire(single, "z", LockMode.WRITE, 10, false))
          .isEqualTo(Grant.granted(s + 3));
    }
  }

  @ParameterizedTest
  @EnumSource(TestDatabase.class)
  void aRateBatchIsOneTransaction(TestDatabase database) {
    try (Counted counted = Counted.open(database)) {
      for (RateLimitType type : RateLimitType.values()) {
        // a day's window: no window ends between the first reservation and the batch
        RateSpec spec = new RateSpec("batched-" + type, type, 5, Duration.ofDays(1).toNanos());
        assertThat(counted.store.rates().reserve(spec, 0).granted()).isTrue();
        counted.transactions.taken();

        long[] maxWaits = new long[10];
        List<RateDecision> decisions = counted.store.rates().reserveEach(spec, maxWaits);
        assertThat(counted.transactions.taken()).as(type + " transactions").isEqualTo(1);
        boolean[] granted = new boolean[decisions.size()];
        for (int i = 0; i < granted.length; i++) {
          granted[i] = decisions.get(i).granted();
        }
        boolean[] fourMore = new boolean[10];
        Arrays.fill(fourMore, 0, 4, true);
        assertThat(granted).as(type + " grants, in order").isEqualTo(fourMore);
      }
    }
  }

  /** The answers with each fencing token less {@code base}. */
  private static List<String> relative(List<Grant> answers, long base) {
    return answers.stream()
        .map(a -> a.outcome() + (a.fencingToken() == 0 ? "" : "+" + (a.fencingToken() - base)))
        .toList();
  }

  private static Grant one(JpaStore store, PermitSpec spec, Operation operation) {
    return switch (operation.kind()) {
      case ACQUIRE -> store.permits().acquire(spec, operation.requestId(), operation.mayQueue());
      case POLL -> store.permits().poll(spec, operation.requestId());
      case CANCEL -> store.permits().cancel(spec, operation.requestId());
      case RELEASE ->
          store.permits().release(spec, operation.requestId()) ? Grant.GRANTED : Grant.REJECTED;
    };
  }

  private static Grant one(JpaStore store, LockSpec spec, Operation operation) {
    String key = operation.key();
    long id = operation.requestId();
    return switch (operation.kind()) {
      case ACQUIRE -> store.locks().acquire(spec, key, operation.mode(), id, operation.mayQueue());
      case POLL -> store.locks().poll(spec, key, id);
      case CANCEL -> store.locks().cancel(spec, key, id);
      case RELEASE -> store.locks().release(spec, key, id) ? Grant.GRANTED : Grant.REJECTED;
    };
  }

  /** A store whose transactions begun on the test's thread are counted, and what it told. */
  private static final class Counted implements AutoCloseable {

    final JpaStoreFixture fixture;
    final CountedTransactions transactions;
    final JpaStore store;
    final List<Long> told = new CopyOnWriteArrayList<>();

    private Counted(JpaStoreFixture fixture) {
      this.fixture = fixture;
      Map<String, String> config = fixture.config();
      JpaSettings settings =
          JpaSettings.from(
              k -> Optional.ofNullable(config.get(k.substring("bulwark.jpa.".length()))));
      StoreUnit unit = StoreUnit.open(settings);
      this.transactions =
          new CountedTransactions(
              new ResourceLocalUnitOfWork(unit.factory()), Thread.currentThread());
      this.store =
          JpaStore.on(
              transactions,
              unit.dialect(),
              null,
              settings,
              (request, token) -> told.add(request),
              unit);
    }

    static Counted open(TestDatabase database) {
      return new Counted(new JpaStoreFixture(database, Provider.HIBERNATE));
    }

    List<Long> takeTold() {
      List<Long> taken = List.copyOf(told);
      told.clear();
      return taken;
    }

    @Override
    public void close() {
      try {
        store.close();
      } finally {
        fixture.close();
      }
    }
  }
}
