package dev.bulwark.benchmarks;

import dev.bulwark.metrics.micrometer.MicrometerListener;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.WeldContainer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The cost of the interceptor hot path, local store, no contention: the same trivial method of an
 * {@code @ApplicationScoped} bean called through its client proxy, plain and under each binding.
 * Every variant pays the same proxy and Weld dispatch, so {@code variant - plain} is the cost of
 * the interceptor, and {@code variant - passThroughInterceptor} the part of it that is the
 * library's own rather than Weld's.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class InterceptorBenchmark {

  /**
   * Who hears Bulwark's events: nobody ({@code none}: no event link in the chains), a {@link
   * dev.bulwark.event.BulwarkListener} bean ({@code listener}), a synchronous CDI observer ({@code
   * observer}), or the metrics module's {@code MicrometerListener} ({@code micrometer}). Only
   * {@code micrometer} turns SmallRye Fault Tolerance's metrics on, into the same registry.
   */
  @Param({"none", "listener", "observer", "micrometer"})
  public String events;

  /** SmallRye FT's switch for its metrics; they default to on when Micrometer is present. */
  private static final String FT_METRICS = "smallrye.faulttolerance.metrics.enabled";

  private WeldContainer container;
  private PlainService plain;
  private PassThroughService passThrough;
  private FaultToleranceService faultTolerance;
  private BulwarkService bulwark;

  /** What one benchmark thread carries between calls: its sequence and its own lock key. */
  @State(Scope.Thread)
  public static class Caller {
    long value;
    String account;

    @Setup
    public void name(ThreadParams thread) {
      account = "account-" + thread.getThreadIndex();
    }
  }

  @Setup(Level.Trial)
  public void boot() {
    List<Class<?>> beans =
        new ArrayList<>(
            List.of(
                PlainService.class,
                PassThroughService.class,
                PassThroughInterceptor.class,
                FaultToleranceService.class,
                BulwarkService.class,
                InterceptionProbe.class,
                // SmallRye FT looks the registry up even with its metrics off
                MeterRegistryProducer.class));
    switch (events) {
      case "listener" -> beans.add(CountingListener.class);
      case "observer" -> beans.add(CountingObserver.class);
      case "micrometer" -> beans.add(MicrometerListener.class);
      default -> {}
    }
    boolean metrics = events.equals("micrometer");
    System.setProperty(FT_METRICS, Boolean.toString(metrics));
    container = BenchmarkContainer.boot(beans.toArray(Class<?>[]::new));
    plain = container.select(PlainService.class).get();
    passThrough = container.select(PassThroughService.class).get();
    faultTolerance = container.select(FaultToleranceService.class).get();
    bulwark = container.select(BulwarkService.class).get();
    InterceptionCheck.run(container.select(InterceptionProbe.class).get());
    MetricsCheck.run(container.select(MeterRegistry.class).get(), metrics);
  }

  @TearDown(Level.Trial)
  public void shutdown() {
    container.shutdown();
  }

  /** (a) No interceptor: the baseline. */
  @Benchmark
  public long plain(Caller caller) {
    return caller.value = plain.next(caller.value);
  }

  /** Control: an interceptor that only proceeds, the floor of any interceptor on Weld. */
  @Benchmark
  public long passThroughInterceptor(Caller caller) {
    return caller.value = passThrough.next(caller.value);
  }

  /** (b) SmallRye Fault Tolerance {@code @Bulkhead(10)}, synchronous, uncontended. */
  @Benchmark
  public long smallryeBulkhead(Caller caller) {
    return caller.value = faultTolerance.bulkhead(caller.value);
  }

  /** (c) Bulwark {@code @DistributedBulkhead(value = 10)}, local store, uncontended. */
  @Benchmark
  public long bulwarkBulkhead(Caller caller) {
    return caller.value = bulwark.bulkhead(caller.value);
  }

  /** (d) Bulwark {@code @DistributedRateLimit}, SMOOTH, so many permits it never rejects. */
  @Benchmark
  public long bulwarkRateLimit(Caller caller) {
    return caller.value = bulwark.rateLimit(caller.value);
  }

  /** The peer of (d): SmallRye {@code @RateLimit}, so many permits it never rejects. */
  @Benchmark
  public long smallryeRateLimit(Caller caller) {
    return caller.value = faultTolerance.rateLimit(caller.value);
  }

  /** (e) Bulwark {@code @DistributedLock} (WRITE) on the thread's own {@code @LockKey}. */
  @Benchmark
  public long bulwarkLock(Caller caller) {
    return caller.value = bulwark.lock(caller.account, caller.value);
  }

  /** (e') The same lock with {@code waitingTime = 0}: what a lock that may wait pays extra. */
  @Benchmark
  public long bulwarkLockNoWait(Caller caller) {
    return caller.value = bulwark.lockNoWait(caller.account, caller.value);
  }
}
