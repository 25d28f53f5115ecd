package dev.bulwark.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.LockKeySnapshot;
import dev.bulwark.LockMode;
import dev.bulwark.spi.Grant;
import dev.bulwark.spi.LockSpec;
import dev.bulwark.spi.LockStore;
import dev.bulwark.spi.Outcome;
import dev.bulwark.tck.model.Caller;
import dev.bulwark.tck.model.LockModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;

/**
 * {@link LockStore} against {@link LockModel}: random sequences of read and write acquires (failing
 * fast or queueing), poll, cancel, release and repeated release on two keys, from callers in every
 * simulated JVM. Every answer, every hand-over each JVM hears and the operator's view after every
 * step must be the model's; a write grant's fencing token exceeds every token given on its key
 * before, and a reader carries a token no lower than the key's last write.
 *
 * <p>An action names its caller by the order of its acquire within the run ("request 3"), not by
 * its request id, so that a shrunk sequence replays: a step whose caller is not in the state the
 * step needs (an earlier step was shrunk away) does nothing.
 */
public abstract class LockStoreProperties extends StoreProperties {

  private static final List<String> KEYS = List.of("a", "b");

  @Property
  @AddLifecycleHook(PropertyTries.class)
  void aKeyedLockAnswersAsItsModel(@ForAll("lockRuns") ActionChain<Run> chain) {
    chain.withInvariant("the store's holders and queues are the model's", Run::checkView).run();
  }

  @Provide
  Arbitrary<ActionChain<Run>> lockRuns() {
    return ActionChain.<Run>startWith(Run::new)
        .withAction(5, new Acquire())
        .withAction(2, onCaller("poll", LockModel::waitingOrGranted, Run::poll))
        .withAction(2, onCaller("cancel", LockModel::waitingOrGranted, Run::cancel))
        .withAction(4, onCaller("release", LockModel::holders, Run::release))
        .withAction(1, onCaller("release again", (model, key) -> model.gone(), Run::release))
        .withMaxTransformations(30);
  }

  /** One try: a lock name of its own, the model beside it, and the tokens seen per key. */
  final class Run {
    private final LockSpec spec = new LockSpec(freshName("lock"), LEASE_MILLIS);
    private final LockModel model = new LockModel();
    private final Map<String, Long> highestToken = new HashMap<>();
    private final Map<String, Long> lastWriteToken = new HashMap<>();
    private final Map<Caller, Long> tokenOf = new HashMap<>();
    private final List<Caller> callers = new ArrayList<>();
    private final List<String> keyOf = new ArrayList<>();

    Run() {
      forgetHandOvers();
    }

    /** The ordinals (1, 2, …) of the callers of this run that {@code which} lists for their key. */
    List<Integer> ordinals(BiFunction<LockModel, String, List<Caller>> which) {
      return IntStream.rangeClosed(1, callers.size())
          .filter(n -> which.apply(model, keyOf.get(n - 1)).contains(callers.get(n - 1)))
          .boxed()
          .toList();
    }

    private LockStore store(Caller caller) {
      return jvms().get(caller.jvm()).locks();
    }

    void acquire(int jvm, String key, LockMode mode, boolean mayQueue) {
      Caller caller = new Caller(jvm, jvms().get(jvm).newRequestId());
      callers.add(caller);
      keyOf.add(key);
      String before = model.toString();
      Grant grant = store(caller).acquire(spec, key, mode, caller.requestId(), mayQueue);
      assertThat(grant.outcome())
          .as("%s acquire of %s by %s (may queue: %s) on %s", mode, key, caller, mayQueue, before)
          .isEqualTo(model.acquire(key, caller, mode, mayQueue));
      if (grant.isGranted()) {
        checkToken(key, caller, mode, grant.fencingToken());
      }
    }

    void poll(String key, Caller caller) {
      Grant grant = store(caller).poll(spec, key, caller.requestId());
      Outcome expected = model.poll(key, caller);
      assertThat(grant.outcome())
          .as("poll of %s for %s on %s", caller, key, model)
          .isEqualTo(expected);
      if (expected == Outcome.GRANTED) {
        assertThat(grant.fencingToken())
            .as("the token a poll of %s gives, as it was handed over", caller)
            .isEqualTo(tokenOf.get(caller));
      }
    }

    void cancel(String key, Caller caller) {
      String before = model.toString();
      Grant grant = store(caller).cancel(spec, key, caller.requestId());
      LockModel.Step expected = model.cancel(key, caller);
      checkHandOvers(key, expected.granted(), "cancel of " + caller + " on " + before);
      assertThat(grant.outcome())
          .as("cancel of %s for %s on %s", caller, key, before)
          .isEqualTo(expected.outcome());
      if (expected.outcome() == Outcome.GRANTED) {
        assertThat(grant.fencingToken())
            .as("the token a cancel after the hand-over gives %s", caller)
            .isEqualTo(tokenOf.get(caller));
      }
    }

    void release(String key, Caller caller) {
      String before = model.toString();
      boolean held = store(caller).release(spec, key, caller.requestId());
      LockModel.Step expected = model.release(key, caller);
      checkHandOvers(key, expected.granted(), "release of " + caller + " on " + before);
      assertThat(held)
          .as("release of %s for %s on %s", caller, key, before)
          .isEqualTo(expected.outcome() == Outcome.GRANTED);
    }

    /** Each JVM heard exactly the grants the model made to its callers, in order. */
    private void checkHandOvers(String key, List<LockModel.Grantee> expected, String after) {
      for (int jvm = 0; jvm < jvms().size(); jvm++) {
        int j = jvm;
        List<LockModel.Grantee> toThisJvm =
            expected.stream().filter(g -> g.caller().jvm() == j).toList();
        List<HandOver> heard = newHandOvers(jvm);
        assertThat(heard.stream().map(HandOver::requestId).toList())
            .as("hand-overs heard by jvm%s after %s", jvm, after)
            .isEqualTo(toThisJvm.stream().map(g -> g.caller().requestId()).toList());
        for (int i = 0; i < heard.size(); i++) {
          LockModel.Grantee grantee = toThisJvm.get(i);
          checkToken(key, grantee.caller(), grantee.mode(), heard.get(i).fencingToken());
        }
      }
    }

    private void checkToken(String key, Caller caller, LockMode mode, long token) {
      long highest = highestToken.getOrDefault(key, 0L);
      if (mode == LockMode.WRITE) {
        assertThat(token)
            .as("write token of %s on %s: above every token given on it before", caller, key)
            .isGreaterThan(highest);
        lastWriteToken.put(key, token);
      } else {
        assertThat(token)
            .as("read token of %s on %s: positive, no lower than its last write", caller, key)
            .isPositive()
            .isGreaterThanOrEqualTo(lastWriteToken.getOrDefault(key, 0L));
      }
      highestToken.put(key, Math.max(highest, token));
      tokenOf.put(caller, token);
    }

    void checkView() {
      for (String key : KEYS) {
        LockKeySnapshot view = jvms().get(0).locks().inspect(spec, key);
        assertThat(view.writer().isPresent())
            .as("a writer of %s on %s", key, model)
            .isEqualTo(model.writer(key).isPresent());
        assertThat(view.readers())
            .as("readers of %s on %s", key, model)
            .hasSize(model.readers(key).size());
        assertThat(view.queued()).as("queued on %s on %s", key, model).isEqualTo(model.queued(key));
      }
    }

    @Override
    public String toString() {
      return spec.name() + " " + model;
    }
  }

  private final class Acquire implements Action.Independent<Run> {
    @Override
    public Arbitrary<Transformer<Run>> transformer() {
      return Combinators.combine(
              Arbitraries.integers().between(0, jvms().size() - 1),
              // mostly one key, so that queues grow; the other shows that keys are independent
              Arbitraries.frequency(Tuple.of(5, KEYS.get(0)), Tuple.of(1, KEYS.get(1))),
              Arbitraries.of(LockMode.class),
              Arbitraries.frequency(Tuple.of(3, true), Tuple.of(1, false)))
          .as(
              (jvm, key, mode, mayQueue) ->
                  Transformer.mutate(
                      mode + " " + key + " in jvm" + jvm + (mayQueue ? ", may queue" : ""),
                      r -> r.acquire(jvm, key, mode, mayQueue)));
    }
  }

  /** What a step does to one caller, on the key it asked for. */
  private interface Step {
    void apply(Run run, String key, Caller caller);
  }

  /**
   * A step on one of the callers that {@code which} lists for the key it asked for (while any is);
   * on replay, a step whose caller is not listed any more does nothing.
   */
  private static Action.Dependent<Run> onCaller(
      String name, BiFunction<LockModel, String, List<Caller>> which, Step step) {
    return new Action.Dependent<>() {
      @Override
      public boolean precondition(Run run) {
        return !run.ordinals(which).isEmpty();
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
                            step.apply(r, r.keyOf.get(n - 1), r.callers.get(n - 1));
                          }
                        }));
      }
    };
  }
}
