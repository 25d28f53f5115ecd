package dev.bulwark.redis.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Script calls pipelined on one connection of the store's own to the primary: a call is written and
 * flushed at once, whatever is still unanswered, and a reading thread of the pipeline's own takes
 * the replies in the order Redis sends them, so several batches are in flight and Redis applies
 * them in the order they were written. The reading thread only completes stages; whoever depends on
 * them must move elsewhere before doing more than bookkeeping.
 *
 * <p>Each connection writes {@code SCRIPT LOAD} of a script before its first {@code EVALSHA} there,
 * so a server that does not know the script yet (first use, restart, a replica that took over)
 * answers the call instead of refusing it: a refused call is sent again elsewhere, after those
 * written behind it, and the order would be lost.
 *
 * <p>An error reply fails its own call only ({@link JedisDataException}: a script flushed since it
 * was loaded, which the next call loads again; a replica that refuses writes...). A broken
 * connection, or a reply that does not come within the read timeout, fails every call still
 * unanswered with a {@link JedisConnectionException} — each may have run — and the next call
 * connects again (to where {@code primary} says the server is then).
 */
public final class ScriptPipeline implements AutoCloseable {

  private final Supplier<HostAndPort> primary;
  private final JedisClientConfig config;
  private final String name;

  // written under lock: callers write one command at a time, in the order they take the lock
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition replyDue = lock.newCondition();
  private final ArrayDeque<Call> unanswered = new ArrayDeque<>();
  private PipelineConnection connection; // guarded by lock
  private boolean closed; // guarded by lock

  /**
   * @param primary where the primary is now (asked again at each connect)
   * @param config the client settings, RESP2 (each reply read is one of the calls written)
   */
  public ScriptPipeline(Supplier<HostAndPort> primary, JedisClientConfig config, String name) {
    this.primary = primary;
    this.config = config;
    this.name = name;
  }

  /**
   * Writes {@code EVALSHA} of {@code script} and flushes it; the stage completes with the decoded
   * reply on the reading thread, or fails as the class says. A failure to connect fails only this
   * call, with the connect failure (the call never reached Redis).
   */
  public CompletableFuture<Object> evalsha(LuaScript script, List<String> keys, List<String> args) {
    CompletableFuture<Object> reply = new CompletableFuture<>();
    String[] command = new String[2 + keys.size() + args.size()];
    command[0] = script.sha();
    command[1] = Integer.toString(keys.size());
    int i = 2;
    for (String key : keys) {
      command[i++] = key;
    }
    for (String arg : args) {
      command[i++] = arg;
    }
    Runnable failures = null;
    lock.lock();
    try {
      if (closed) {
        reply.completeExceptionally(new JedisConnectionException(name + " is closed"));
        return reply;
      }
      PipelineConnection open;
      try {
        open = connected();
      } catch (RuntimeException e) {
        reply.completeExceptionally(e);
        return reply;
      }
      try {
        if (open.loaded.add(script.sha())) {
          // its reply (the SHA) is read and dropped; an error there shows in the EVALSHA's own
          unanswered.add(new Call(new CompletableFuture<>(), null));
          open.sendCommand(Protocol.Command.SCRIPT, "LOAD", script.source());
        }
        unanswered.add(new Call(reply, script.sha()));
        open.sendCommand(Protocol.Command.EVALSHA, command);
        open.flushNow();
        replyDue.signal();
      } catch (RuntimeException e) {
        JedisConnectionException failure = asConnectionFailure(e);
        Runnable unansweredFail = broken(open, failure);
        // the call itself is not among them when the write of its script failed
        failures =
            () -> {
              unansweredFail.run();
              reply.completeExceptionally(failure);
            };
      }
    } finally {
      lock.unlock();
    }
    if (failures != null) {
      failures.run();
    }
    return reply;
  }

  /** How many calls wait for their reply (a script's load is not one). */
  public int unansweredCount() {
    lock.lock();
    try {
      return (int) unanswered.stream().filter(call -> call.sha != null).count();
    } finally {
      lock.unlock();
    }
  }

  private PipelineConnection connected() {
    if (connection != null) {
      return connection;
    }
    PipelineConnection fresh = new PipelineConnection(primary.get(), config);
    fresh.connect();
    connection = fresh;
    Thread thread = new Thread(() -> read(fresh), name + "-reader");
    thread.setDaemon(true);
    thread.start();
    return fresh;
  }

  /** The reading thread of one connection: one reply per call written, in order. */
  private void read(PipelineConnection from) {
    while (true) {
      Call next;
      lock.lock();
      try {
        while (connection == from && unanswered.isEmpty() && !closed) {
          replyDue.awaitUninterruptibly();
        }
        if (connection != from || closed) {
          return;
        }
        next = unanswered.peek();
      } finally {
        lock.unlock();
      }
      Object reply;
      try {
        reply = BuilderFactory.AGGRESSIVE_ENCODED_OBJECT.build(from.getUnflushedObject());
      } catch (JedisDataException errorReply) {
        take(from, next, errorReply instanceof JedisNoScriptException);
        next.reply.completeExceptionally(errorReply);
        continue;
      } catch (RuntimeException e) {
        Runnable failures;
        lock.lock();
        try {
          failures = broken(from, asConnectionFailure(e));
        } finally {
          lock.unlock();
        }
        failures.run();
        return;
      }
      take(from, next, false);
      next.reply.complete(reply);
    }
  }

  /**
   * Takes the answered call off; {@code forgotten}: Redis no longer knows its script (flushed), so
   * the next call of it on this connection loads it again.
   */
  private void take(PipelineConnection from, Call answered, boolean forgotten) {
    lock.lock();
    try {
      if (connection == from && unanswered.peek() == answered) {
        unanswered.poll();
      }
      if (forgotten && answered.sha != null) {
        from.loaded.remove(answered.sha);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Drops the connection, under lock; returns what fails every call it left unanswered, to run once
   * the lock is let go (what depends on a call must not run under it).
   */
  private Runnable broken(PipelineConnection which, JedisConnectionException failure) {
    if (connection != which) {
      return () -> {};
    }
    connection = null;
    List<Call> failed = new ArrayList<>(unanswered);
    unanswered.clear();
    replyDue.signalAll();
    which.setBroken();
    try {
      which.close();
    } catch (RuntimeException closing) {
      // Jedis flushes what a failed write left buffered before it closes, and throws when that
      // fails too (a broken pipe): the calls taken off above must fail all the same, or their
      // callers would wait for ever
      failure.addSuppressed(closing);
    }
    return () -> failed.forEach(call -> call.reply.completeExceptionally(failure));
  }

  private static JedisConnectionException asConnectionFailure(RuntimeException e) {
    return e instanceof JedisConnectionException broken ? broken : new JedisConnectionException(e);
  }

  /**
   * Drops the connection (a primary that changed, an error reply that says it is no primary), so
   * the next call connects again; calls still unanswered fail as after a break.
   */
  public void reconnect() {
    drop(false);
  }

  @Override
  public void close() {
    drop(true);
  }

  private void drop(boolean close) {
    Runnable failures = () -> {};
    lock.lock();
    try {
      if (connection != null) {
        failures =
            broken(
                connection,
                new JedisConnectionException(name + (close ? " is closed" : ": reconnecting")));
      }
      closed |= close;
      replyDue.signalAll();
    } finally {
      lock.unlock();
    }
    failures.run();
  }

  /** A command written and not answered yet; {@code sha}: the script it calls (null: a load). */
  private record Call(CompletableFuture<Object> reply, String sha) {}

  /**
   * A connection whose buffered commands can be flushed without reading a reply, and the scripts
   * loaded on it (guarded by the pipeline's lock).
   */
  private static final class PipelineConnection extends Connection {

    private final Set<String> loaded = new HashSet<>();

    PipelineConnection(HostAndPort node, JedisClientConfig config) {
      super(node, config);
    }

    void flushNow() {
      flush();
    }
  }
}
