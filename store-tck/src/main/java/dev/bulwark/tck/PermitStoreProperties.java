package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.Operation;
import dev.bulwark.spi.Outcome;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.tck.model.Caller;
import dev.bulwark.tck.model.PermitModel;
import dev.bulwark.tck.property.Action;
import dev.bulwark.tck.property.ActionChain;
import dev.bulwark.tck.property.ChainStep;
import dev.bulwark.tck.property.Gen;
import dev.bulwark.tck.property.Property;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link PermitStore} against {@link PermitModel}: random sequences of acquire (failing fast or
 * queueing), poll, cancel, release and repeated release from callers in every simulated JVM; every
 * answer, every hand-over each JVM hears (who, in which order) and the operator's view after every
 * step must be the model's.
 *
 * <p>A batch action sends 2 to 8 of those operations from one JVM through {@link
 * PermitStore#apply}: each answer must be the one the model gives stepped through them one by one
 * in order (a release's: {@link Grant#GRANTED} when it released, {@link Grant#REJECTED} when not
 * held), and so must the hand-overs heard after it. A caller appears at most once in a batch, as in
 * the engine's (an operation on a request waits for the answer to the one before).
 *
 * <p>An action names its caller by the order of its acquire within the run ("request 3"), not by
 * its request id, so that a shrunk sequence replays: a step whose caller is not in the state the
 * step needs (an earlier step was shrunk away) does nothing.
 */
public abstract class PermitStoreProperties extends StoreProperties {

  @Test
  public void aBulkheadAnswersAsItsModel() {
    Property.forAll(
        tries(),
        bulkheadRuns(),
        chain ->
            chain
                .withInvariant("the store's holders and queue are the model's", Run::checkView)
                .run());
  }

  Gen<ActionChain<Run>> bulkheadRuns() {
    return Gen.ints(1, 3)
        .flatMap(
            limit ->
                ActionChain.<Run>startWith(() -> new Run(limit))
                    .withAction(4, new Acquire())
                    .withAction(2, onCaller("poll", m -> m.waitingOrHandedOver(), Run::poll))
                    .withAction(2, onCaller("cancel", m -> m.waitingOrHandedOver(), Run::cancel))
                    .withAction(4, onCaller("release", PermitModel::holders, Run::release))
                    .withAction(1, onCaller("release again", PermitModel::gone, Run::release))
                    .withAction(3, new Batch())
                    .withMaxSteps(30));
  }

  /** One try: a bulkhead of its own, the model beside it, and its callers in order. */
  final class Run {
    private final PermitSpec spec;
    private final PermitModel model;
    private final List<Caller> callers = new ArrayList<>();

    Run(int limit) {
      this.spec = new PermitSpec(freshName("bulkhead"), limit, LEASE_MILLIS);
      this.model = new PermitModel(limit);
      forgetHandOvers();
    }

    private PermitStore store(Caller caller) {
      return jvms().get(caller.jvm()).permits();
    }

    /** The ordinals (1, 2, …) of the callers of this run that {@code which} lists. */
    List<Integer> ordinals(Function<PermitModel, List<Caller>> which) {
      List<Caller> listed = which.apply(model);
      return IntStream.rangeClosed(1, callers.size())
          .filter(n -> listed.contains(callers.get(n - 1)))
          .boxed()
          .toList();
    }

    void acquire(int jvm, boolean mayQueue) {
      Caller caller = new Caller(jvm, jvms().get(jvm).newRequestId());
      callers.add(caller);
      Grant grant = store(caller).acquire(spec, caller.requestId(), mayQueue);
      assertThat(grant.outcome())
          .as("acquire by %s (may queue: %s) on %s", caller, mayQueue, model)
          .isEqualTo(model.acquire(caller, mayQueue));
    }

    void poll(Caller caller) {
      assertThat(store(caller).poll(spec, caller.requestId()).outcome())
          .as("poll of %s on %s", caller, model)
          .isEqualTo(model.poll(caller));
    }

    void cancel(Caller caller) {
      String before = model.toString();
      assertThat(store(caller).cancel(spec, caller.requestId()).outcome())
          .as("cancel of %s on %s", caller, before)
          .isEqualTo(model.cancel(caller));
      checkHandOvers(List.of(), "cancel of " + caller);
    }

    void release(Caller caller) {
      String before = model.toString();
      boolean held = store(caller).release(spec, caller.requestId());
      PermitModel.Release expected = model.release(caller);
      checkHandOvers(expected.handedOver(), "release of " + caller + " on " + before);
      assertThat(held).as("release of %s on %s", caller, before).isEqualTo(expected.held());
    }

    /**
     * Sends the operations {@code plan} describes from JVM {@code jvm} as one batch; a planned step
     * on a caller that is not in the state it needs (shrunk away), not of this JVM or already in
     * this batch is left out.
     */
    void batch(int jvm, List<Planned> plan) {
      List<Operation> operations = new ArrayList<>();
      List<Caller> subjects = new ArrayList<>();
      Set<Integer> inBatch = new HashSet<>();
      for (Planned planned : plan) {
        if (planned.kind() == PlannedKind.ACQUIRE) {
          Caller caller = new Caller(jvm, jvms().get(jvm).newRequestId());
          callers.add(caller);
          subjects.add(caller);
          operations.add(Operation.acquire(caller.requestId(), planned.mayQueue()));
        } else if (ordinals(jvm, planned.kind().which).contains(planned.ordinal())
            && inBatch.add(planned.ordinal())) {
          Caller caller = callers.get(planned.ordinal() - 1);
          subjects.add(caller);
          operations.add(planned.kind().operation(caller.requestId()));
        }
      }
      if (operations.isEmpty()) {
        return;
      }
      String before = model.toString();
      List<Grant> answers = jvms().get(jvm).permits().apply(spec, operations);
      assertThat(answers).as("answers to %s on %s", operations, before).hasSize(operations.size());
      Property.collect("bulkhead batch operations sent", operations.size());
      List<Caller> handedOver = new ArrayList<>();
      for (int i = 0; i < operations.size(); i++) {
        Operation operation = operations.get(i);
        Caller caller = subjects.get(i);
        String state = model.toString();
        Outcome expected =
            switch (operation.kind()) {
              case ACQUIRE -> model.acquire(caller, operation.mayQueue());
              case POLL -> model.poll(caller);
              case CANCEL -> model.cancel(caller);
              case RELEASE -> {
                PermitModel.Release release = model.release(caller);
                handedOver.addAll(release.handedOver());
                yield release.held() ? Outcome.GRANTED : Outcome.REJECTED;
              }
            };
        assertThat(answers.get(i).outcome())
            .as(
                "%s of %s, operation %s of batch %s, on %s",
                operation.kind(), caller, i + 1, operations, state)
            .isEqualTo(expected);
      }
      checkHandOvers(handedOver, "batch " + operations + " of jvm" + jvm + " on " + before, true);
    }

    /** The ordinals of the callers of JVM {@code jvm} that {@code which} lists. */
    List<Integer> ordinals(int jvm, Function<PermitModel, List<Caller>> which) {
      return ordinals(which).stream().filter(n -> callers.get(n - 1).jvm() == jvm).toList();
    }

    private void checkHandOvers(List<Caller> expected, String after) {
      checkHandOvers(expected, after, false);
    }

    /**
     * Each JVM heard exactly the hand-overs the model made to its callers, in order; after a batch,
     * a hand-over told twice (from the reply, then by its notice) counts once.
     */
    private void checkHandOvers(List<Caller> expected, String after, boolean batch) {
      for (int jvm = 0; jvm < jvms().size(); jvm++) {
        int j = jvm;
        List<Long> toThisJvm =
            expected.stream().filter(c -> c.jvm() == j).map(Caller::requestId).toList();
        List<HandOver> heard = batch ? newHandOversOnce(jvm) : newHandOvers(jvm);
        assertThat(heard.stream().map(HandOver::requestId).toList())
            .as("hand-overs heard by jvm%s after %s", jvm, after)
            .isEqualTo(toThisJvm);
      }
    }

    void checkView() {
      BulkheadSnapshot view = jvms().get(0).permits().inspect(spec);
      assertThat(view.holders()).as("holders of %s", model).hasSize(model.holders().size());
      assertThat(view.queued()).as("queued of %s", model).isEqualTo(model.queue().size());
    }

    @Override
    public String toString() {
      return spec.name() + " " + model;
    }
  }

  private final class Acquire implements Action<Run> {
    @Override
    public Gen<ChainStep<Run>> steps(Run run) {
      return Gen.ints(0, jvms().size() - 1)
          .flatMap(
              jvm ->
                  Gen.of(true, false)
                      .map(
                          mayQueue ->
                              ChainStep.of(
                                  "acquire in jvm" + jvm + (mayQueue ? ", may queue" : ""),
                                  r -> r.acquire(jvm, mayQueue))));
    }
  }

  /** What a planned operation of a batch does. */
  enum PlannedKind {
    ACQUIRE(null),
    POLL(PermitModel::waitingOrHandedOver),
    CANCEL(PermitModel::waitingOrHandedOver),
    RELEASE(PermitModel::holders),
    RELEASE_AGAIN(PermitModel::gone);

    /** The callers it applies to; none for an acquire, whose caller is new. */
    final Function<PermitModel, List<Caller>> which;

    PlannedKind(Function<PermitModel, List<Caller>> which) {
      this.which = which;
    }

    Operation operation(long requestId) {
      return switch (this) {
        case ACQUIRE -> throw new IllegalStateException("an acquire's caller is new");
        case POLL -> Operation.poll("", requestId);
        case CANCEL -> Operation.cancel("", requestId);
        case RELEASE, RELEASE_AGAIN -> Operation.release("", requestId);
      };
    }
  }

  /**
   * One operation of a planned batch: an acquire by a new caller, or a step on the caller of
   * ordinal {@code ordinal} (named by order, as the single actions do, so that a shrunk run
   * replays).
   */
  record Planned(PlannedKind kind, int ordinal, boolean mayQueue) {
    @Override
    public String toString() {
      return kind == PlannedKind.ACQUIRE
          ? "acquire" + (mayQueue ? " (may queue)" : "")
          : kind.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " request " + ordinal;
    }
  }

  /** A batch of 2 to 8 operations from one JVM, on the callers of that JVM. */
  private final class Batch implements Action<Run> {
    @Override
    public Gen<ChainStep<Run>> steps(Run run) {
      return Gen.ints(0, jvms().size() - 1)
          .flatMap(
              jvm ->
                  planned(run, jvm)
                      .list(2, 8)
                      .map(
                          plan ->
                              ChainStep.of(
                                  "batch in jvm" + jvm + " " + plan, r -> r.batch(jvm, plan))));
    }

    private Gen<Planned> planned(Run run, int jvm) {
      List<Gen.Weighted<Planned>> choices = new ArrayList<>();
      choices.add(
          Gen.Weighted.of(
              4,
              Gen.of(true, false).map(mayQueue -> new Planned(PlannedKind.ACQUIRE, 0, mayQueue))));
      for (PlannedKind kind : PlannedKind.values()) {
        if (kind != PlannedKind.ACQUIRE) {
          List<Integer> ordinals = run.ordinals(jvm, kind.which);
          if (!ordinals.isEmpty()) {
            int weight = kind == PlannedKind.RELEASE_AGAIN ? 1 : 3;
            choices.add(
                Gen.Weighted.of(weight, Gen.of(ordinals).map(n -> new Planned(kind, n, false))));
          }
        }
      }
      return Gen.frequency(choices);
    }
  }

  /** What a step does to one caller. */
  private interface OnCaller {
    void apply(Run run, Caller caller);
  }

  /**
   * A step on one of the callers that {@code which} lists (while any is); on replay, a step whose
   * caller is not listed any more does nothing.
   */
  private static Action<Run> onCaller(
      String name, Function<PermitModel, List<Caller>> which, OnCaller step) {
    return new Action<>() {
      @Override
      public boolean precondition(Run run) {
        return !which.apply(run.model).isEmpty();
      }

      @Override
      public Gen<ChainStep<Run>> steps(Run run) {
        return Gen.of(run.ordinals(which))
            .map(
                n ->
                    ChainStep.of(
                        name + " request " + n,
                        r -> {
                          if (r.ordinals(which).contains(n)) {
                            step.apply(r, r.callers.get(n - 1));
                          }
                        }));
      }
    };
  }
}
