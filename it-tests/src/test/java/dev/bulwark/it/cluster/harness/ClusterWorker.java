package dev.bulwark.it.cluster.harness;

import dev.bulwark.LockContext;
import dev.bulwark.cdi.BulkheadInterceptor;
import dev.bulwark.cdi.BulwarkExtension;
import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.cdi.LockInterceptor;
import dev.bulwark.cdi.RateLimitInterceptor;
import dev.bulwark.cdi.StartupCheck;
import dev.bulwark.it.cluster.history.CallRecord;
import dev.bulwark.it.cluster.history.EventLog;
import dev.bulwark.it.cluster.history.StallWatch;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * The main class of one worker JVM of a multi-JVM test: boots Weld SE with Bulwark and {@link
 * GuardedOperations} (configured by the system properties the test set), waits at the {@link
 * StartBarrier}, runs its scenario on several threads and records every call in its {@link
 * EventLog} and the {@link LiveCounters}. Exit code 0 when the scenario ran to its end, whatever
 * the calls' outcomes (judging them is the test's job).
 */
public final class ClusterWorker {

  private static final Duration BARRIER_TIMEOUT = ClusterRun.BOOT_TIMEOUT;
  private static final Duration RECORD_TIMEOUT = Duration.ofSeconds(30);
  private static final int WARM_UP_ROUNDS = 5;

  private final WorkerOptions options;
  private final EventLog log;
  private final GuardedOperations operations;
  private final LiveCounters counters;
  private final FencedSink sink;
  private final AtomicLong refusedBySink = new AtomicLong();
  private final Map<String, AtomicLong> uncountedRejections = new ConcurrentHashMap<>();
  private final Map<String, Boolean> stackPrinted = new ConcurrentHashMap<>();

  private ClusterWorker(
      WorkerOptions options,
      EventLog log,
      GuardedOperations operations,
      LiveCounters counters,
      FencedSink sink) {
    this.options = options;
    this.log = log;
    this.operations = operations;
    this.counters = counters;
    this.sink = sink;
  }

  public static void main(String[] args) throws Exception {
    WorkerOptions options = WorkerOptions.parse(args);
    int status = 1;
    try (EventLog log = new EventLog(options.events())) {
      // taken together, so the test can tell how far this JVM's wall clock is from its own
      log.info("clock", System.currentTimeMillis() + " " + System.nanoTime());
      status = run(options, log);
    } catch (Throwable t) {
      t.printStackTrace();
    } finally {
      System.out.flush();
      System.err.flush();
      // Weld and Jedis leave threads behind; the exit code is what the test reads
      System.exit(status);
    }
  }

  /**
   * The client of the shared Redis that keeps the run's records and live counters. Its replies may
   * take long on a loaded machine: a counter update that timed out would fail the guarded call and,
   * had it run, leave the counter one too high, so it waits far longer than Jedis's 2 s.
   */
  private static RedisClient recordClient(URI url) {
    return RedisClient.builder()
        .hostAndPort(JedisURIHelper.getHostAndPort(url))
        .clientConfig(
            DefaultJedisClientConfig.builder()
                .user(JedisURIHelper.getUser(url))
                .password(JedisURIHelper.getPassword(url))
                .database(JedisURIHelper.getDBIndex(url))
                .ssl(JedisURIHelper.isRedisSSLScheme(url))
                .socketTimeoutMillis((int) RECORD_TIMEOUT.toMillis())
                .build())
        .build();
  }

  private static int run(WorkerOptions options, EventLog log) throws InterruptedException {
    // the default pool (8 connections) serves the callers' counter updates: a caller that waits
    // for a connection does so inside the guarded body, which only lengthens its recorded stay
    try (RedisClient record = recordClient(URI.create(options.recordUrl()));
        WeldContainer weld = boot()) {
      GuardedOperations operations = weld.select(GuardedOperations.class).get();
      LeaseWitness.recordTo(log);
      ClusterWorker worker =
          new ClusterWorker(
              options,
              log,
              operations,
              new LiveCounters(record, options.recordPrefix()),
              options.fencedSink() ? new FencedSink(record, options.recordPrefix()) : null);
      worker.warmUp();
      long start = new StartBarrier(record, options.recordPrefix()).arriveAndAwait(BARRIER_TIMEOUT);
      log.info("start", start);
      StallWatch.start(log);
      worker.runScenario(start + options.startDelay().toNanos());
      worker.uncountedRejections.forEach((name, count) -> log.info("rejected:" + name, count));
      log.info("sink-refused", worker.refusedBySink.get());
      // again at the end: a clock that libfaketime shifts only after the boot is shifted by now
      log.info("clock-at-end", System.currentTimeMillis() + " " + System.nanoTime());
      log.done();
    }
    return 0;
  }

  /**
   * Weld SE with Bulwark's portable extension and beans, as the cdi-extension tests boot it: bean
   * discovery off, so nothing else on the test classpath (SmallRye FT, Arquillian) joins in.
   */
  public static WeldContainer boot() {
    return new Weld("bulwark-cluster-worker")
        .disableDiscovery()
        .addExtension(new BulwarkExtension())
        .addBeanClasses(
            BulwarkRuntime.class,
            StartupCheck.class,
            BulkheadInterceptor.class,
            RateLimitInterceptor.class,
            LockInterceptor.class,
            GuardedOperations.class,
            LeaseWitness.class)
        .initialize();
  }

  /**
   * Runs every code path of the scenario a few times on limits of their own, from as many threads
   * as the scenario uses, before the start: class loading, the JIT, the store's connections,
   * scripts or statements and wake-up subscription are then no part of what the test measures (a
   * cold first call can spend hundreds of ms between its request stamp and the store). The bulkhead
   * (2 permits for everyone) makes most calls queue and be woken; each thread locks a key of its
   * own, so the warm-up never waits for another JVM's lock.
   */
  private void warmUp() throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < options.threads(); i++) {
      String key = "warm-" + options.worker() + "-" + i;
      Thread thread =
          new Thread(
              () -> {
                for (int round = 0; round < WARM_UP_ROUNDS; round++) {
                  // two permits for all threads: most of these calls queue and are woken
                  operations.warmUpBulkhead(() -> sleep(TimeUnit.MILLISECONDS.toNanos(1)));
                  operations.warmUpRateLimited();
                  operations.warmUpWrite(key);
                  operations.warmUpRead(key);
                }
              },
              options.worker() + "-warm-up-" + i);
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
  }

  private void runScenario(long begin) throws InterruptedException {
    StartBarrier.sleepUntil(begin);
    long deadline = begin + options.duration().toNanos();
    long cutOff = begin + Math.max(options.duration().toNanos(), options.maxDuration().toNanos());
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < options.threads(); i++) {
      int index = i;
      Thread thread =
          new Thread(
              () -> callerLoop(index, deadline, cutOff), options.worker() + "-caller-" + index);
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
  }

  private void callerLoop(int thread, long deadline, long cutOff) {
    for (int seq = 0; seq < options.calls(); seq++) {
      long now = System.nanoTime();
      if (now >= cutOff || (now >= deadline && seq >= options.minCalls())) {
        break;
      }
      switch (options.scenario()) {
        case BULKHEAD -> bulkheadCall(thread, seq);
        case RATE -> rateCall(thread, seq);
        case LOCK -> lockCall(thread, seq);
      }
    }
  }

  private void bulkheadCall(int thread, int seq) {
    long[] inside = new long[2];
    long request = System.nanoTime();
    String outcome = CallRecord.OK;
    try {
      operations.bulkhead(
          () -> {
            inside[0] = System.nanoTime();
            log.entered(
                new CallRecord(
                    options.worker(),
                    thread,
                    seq,
                    "BULKHEAD",
                    "-",
                    request,
                    inside[0],
                    0,
                    0,
                    CallRecord.INSIDE,
                    0));
            try {
              counters.enter(options.worker());
              hold();
              counters.exit(options.worker());
            } finally {
              inside[1] = System.nanoTime();
            }
          });
    } catch (RuntimeException e) {
      outcome = rejection(e);
    }
    finish(thread, seq, "BULKHEAD", "-", request, inside, outcome, 0);
  }

  private void rateCall(int thread, int seq) {
    long[] inside = new long[2];
    long request = System.nanoTime();
    String outcome = CallRecord.OK;
    try {
      operations.rateLimited(
          () -> {
            inside[0] = System.nanoTime();
            inside[1] = inside[0];
          });
    } catch (RuntimeException e) {
      outcome = rejection(e);
    }
    finish(thread, seq, "RATE", "-", request, inside, outcome, 0);
  }

  private void lockCall(int thread, int seq) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    String key = "k" + random.nextInt(options.keys());
    String mode = random.nextDouble() < options.writeShare() ? "WRITE" : "READ";
    long[] inside = new long[2];
    long[] token = new long[1];
    long request = System.nanoTime();
    String outcome = CallRecord.OK;
    Runnable body =
        () -> {
          inside[0] = System.nanoTime();
          token[0] = "WRITE".equals(mode) ? LockContext.fencingToken() : 0;
          log.entered(
              new CallRecord(
                  options.worker(),
                  thread,
                  seq,
                  mode,
                  key,
                  request,
                  inside[0],
                  0,
                  0,
                  CallRecord.INSIDE,
                  token[0]));
          try {
            counters.lockEnter(key, mode);
            boolean fenced = sink != null && "WRITE".equals(mode);
            if (fenced) {
              writeToSink(key, token[0], "first");
            }
            hold();
            if (fenced) {
              writeToSink(key, token[0], "last");
            }
            counters.lockExit(key, mode);
          } finally {
            inside[1] = System.nanoTime();
          }
        };
    try {
      if ("WRITE".equals(mode)) {
        operations.write(key, body);
      } else {
        operations.read(key, body);
      }
    } catch (RuntimeException e) {
      outcome = rejection(e);
    }
    finish(thread, seq, mode, key, request, inside, outcome, token[0]);
  }

  /** A refused write is the downstream's answer, not the call's failure: it is counted. */
  private void writeToSink(String key, long token, String phase) {
    if (!sink.write(key, token, options.worker(), phase)) {
      refusedBySink.incrementAndGet();
    }
  }

  private void finish(
      int thread,
      int seq,
      String kind,
      String key,
      long request,
      long[] inside,
      String outcome,
      long token) {
    long returned = System.nanoTime();
    boolean rejected = !CallRecord.OK.equals(outcome);
    // a call that held ends where its body did, even when the body failed: its release, and the
    // hand-over that may wake another JVM's waiter, comes after that
    long end = inside[1] != 0 ? inside[1] : returned;
    if (rejected && !options.recordRejections()) {
      uncountedRejections.computeIfAbsent(outcome, k -> new AtomicLong()).incrementAndGet();
    } else {
      log.ended(
          new CallRecord(
              options.worker(),
              thread,
              seq,
              kind,
              key,
              request,
              inside[0],
              end,
              returned,
              outcome,
              token));
    }
    if (rejected && !options.pauseAfterReject().isZero()) {
      sleep(options.pauseAfterReject().toNanos());
    }
  }

  /** The outcome name of a failed call; the first stack of each kind goes to stderr. */
  private String rejection(RuntimeException e) {
    String name = e.getClass().getSimpleName();
    if (stackPrinted.putIfAbsent(name, Boolean.TRUE) == null) {
      System.err.println(options.worker() + ": first " + name + ":");
      e.printStackTrace();
    }
    return name;
  }

  private void hold() {
    long min = options.holdMin().toNanos();
    long max = options.holdMax().toNanos();
    sleep(max > min ? ThreadLocalRandom.current().nextLong(min, max + 1) : min);
  }

  private static void sleep(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
