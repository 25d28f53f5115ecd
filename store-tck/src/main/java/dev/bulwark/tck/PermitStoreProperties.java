package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.PermitSpec;
import dev.bulwark.spi.PermitStore;
import dev.bulwark.tck.model.Caller;
import dev.bulwark.tck.model.PermitModel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;

/**
 * {@link PermitStore} against {@link PermitModel}: random sequences of acquire (failing fast or
 * queueing), poll, cancel, release and repeated release from callers in every simulated JVM; every
 * answer, every hand-over each JVM hears (who, in which order) and the operator's view after every
 * step must be the model's.
 *
 * <p>An action names its caller by the order of its acquire within the run ("request 3"), not by
 * its request id, so that a shrunk sequence replays: a step whose caller is not in the state the
 * step needs (an earlier step was shrunk away) does nothing.
 */
public abstract class PermitStoreProperties extends StoreProperties {

  @Property
  @AddLifecycleHook(PropertyTries.class)
  void aBulkheadAnswersAsItsModel(@ForAll("bulkheadRuns") ActionChain<Run> chain) {
    chain.withInvariant("the store's holders and queue are the model's", Run::checkView).run();
  }

  @Provide
  Arbitrary<ActionChain<Run>> bulkheadRuns() {
    return Arbitraries.integers()
        .between(1, 3)
        .flatMap(
            limit ->
                ActionChain.<Run>startWith(() -> new Run(limit))
                    .withAction(4, new Acquire())
                    .withAction(2, onCaller("poll", m -> m.waitingOrHandedOver(), Run::poll))
                    .withAction(2, onCaller("cancel", m -> m.waitingOrHandedOver(), Run::cancel))
                    .withAction(4, onCaller("release", PermitModel::holders, Run::release))
                    .withAction(1, onCaller("release again", PermitModel::gone, Run::release))
                    .withMaxTransformations(30));
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

    /** Each JVM heard exactly the hand-overs the model made to its callers, in order. */
    private void checkHandOvers(List<Caller> expected, String after) {
      for (int jvm = 0; jvm < jvms().size(); jvm++) {
        int j = jvm;
        List<Long> toThisJvm =
            expected.stream().filter(c -> c.jvm() == j).map(Caller::requestId).toList();
        assertThat(newHandOvers(jvm).stream().map(HandOver::requestId).toList())
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

  private final class Acquire implements Action.Independent<Run> {
    @Override
    public Arbitrary<Transformer<Run>> transformer() {
      return Arbitraries.integers()
          .between(0, jvms().size() - 1)
          .flatMap(
              jvm ->
                  Arbitraries.of(true, false)
                      .map(
                          mayQueue ->
                              Transformer.mutate(
                                  "acquire in jvm" + jvm + (mayQueue ? ", may queue" : ""),
                                  r -> r.acquire(jvm, mayQueue))));
    }
  }

  /** What a step does to one caller. */
  private interface Step {
    void apply(Run run, Caller caller);
  }

  /**
   * A step on one of the callers that {@code which} lists (while any is); on replay, a step whose
   * caller is not listed any more does nothing.
   */
  private static Action.Dependent<Run> onCaller(
      String name, Function<PermitModel, List<Caller>> which, Step step) {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(Run run) {
        return !which.apply(run.model).isEmpty();
      }

      @Override
      public Arbitrary<Transformer<Run>> transformer(Run run) {
        return Arbitraries.of(run.ordinals(which))
            .map(
                n ->
                    Transformer.mutate(
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
