package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.redis.client.LuaScript;
import dev.bulwark.redis.client.ScriptPipeline;
import dev.bulwark.tck.OutageRelay;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The store's pipelined connection on the real Redis, through a relay the test can silence and cut:
 * many calls in flight each get their own reply in the order written, an error reply fails only its
 * call, a script Redis does not know is loaded before its first call, and a connection cut or
 * silent past the read timeout with three calls in flight fails all three as "may have run" and
 * connects again for the next call.
 */
@ExtendWith(RedisExtension.class)
@Timeout(60)
class ScriptPipelineTest {

  private static final LuaScript ECHO = LuaScript.load("echo_for_test");

  /** A script answered with an error reply. */
  private static final LuaScript REFUSE = LuaScript.load("refuse_for_test");

  private static final JedisClientConfig CONFIG =
      DefaultJedisClientConfig.builder()
          .protocol(RedisProtocol.RESP2)
          .socketTimeoutMillis(500)
          .connectionTimeoutMillis(500)
          .build();

  @Test
  void callsInFlightGetTheirOwnRepliesInOrderAndAnErrorReplyFailsOnlyItsCall(TestRedis test)
      throws Exception {
    test.redis().scriptLoad(ECHO.source());
    URI server = URI.create(test.url());
    try (ScriptPipeline pipeline =
        new ScriptPipeline(
            () -> new HostAndPort(server.getHost(), server.getPort()), CONFIG, "test-pipeline")) {
      List<CompletableFuture<Object>> replies = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        replies.add(pipeline.evalsha(ECHO, List.of(test.prefix() + "k"), List.of("call " + i)));
      }
      CompletableFuture<Object> refused =
          pipeline.evalsha(REFUSE, List.of(test.prefix() + "k"), List.of("x"));
      CompletableFuture<Object> after =
          pipeline.evalsha(ECHO, List.of(test.prefix() + "k"), List.of("after"));

      for (int i = 0; i < 200; i++) {
        assertThat(replies.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("call " + i);
      }
      assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(JedisDataException.class)
          .hasMessageContaining("refused x");
      assertThat(after.get(10, TimeUnit.SECONDS)).isEqualTo("after");
      assertThat(pipeline.unansweredCount()).isZero();
    }
  }

  /**
   * A call Redis refused for a script it does not know is sent again elsewhere, behind those
   * written after it: the pipeline loads each script on its connection before the first call, so
   * none is refused, and after a flush one call is, and the next is answered.
   */
  @Test
  void scriptsRedisDoesNotKnowAreLoadedOnTheConnectionSoNoCallIsRefused(TestRedis test)
      throws Exception {
    test.redis().scriptFlush(); // as after a restart, or on a replica that took over
    URI server = URI.create(test.url());
    try (ScriptPipeline pipeline =
        new ScriptPipeline(
            () -> new HostAndPort(server.getHost(), server.getPort()), CONFIG, "test-pipeline")) {
      List<CompletableFuture<Object>> replies = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        replies.add(pipeline.evalsha(ECHO, List.of(test.prefix() + "k"), List.of("call " + i)));
      }
      for (int i = 0; i < 50; i++) {
        assertThat(replies.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("call " + i);
      }

      test.redis().scriptFlush(); // forgotten while the connection stays
      CompletableFuture<Object> refused =
          pipeline.evalsha(ECHO, List.of(test.prefix() + "k"), List.of("flushed"));
      assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS))
          .hasCauseInstanceOf(JedisNoScriptException.class);
      assertThat(
              pipeline
                  .evalsha(ECHO, List.of(test.prefix() + "k"), List.of("loaded again"))
                  .get(10, TimeUnit.SECONDS))
          .isEqualTo("loaded again");
      assertThat(pipeline.unansweredCount()).isZero();
    }
  }

  @Test
  void aConnectionCutWithThreeCallsInFlightFailsAllThreeAndTheNextCallConnectsAgain(TestRedis test)
      throws Exception {
    test.redis().scriptLoad(ECHO.source());
    URI server = URI.create(test.url());
    try (OutageRelay relay = new OutageRelay(server.getHost(), server.getPort())) {
      relay.open();
      try (ScriptPipeline pipeline =
          new ScriptPipeline(
              () -> new HostAndPort("127.0.0.1", relay.port()), CONFIG, "test-pipeline")) {
        assertThat(pipeline.evalsha(ECHO, List.of("k"), List.of("warm")).get(10, TimeUnit.SECONDS))
            .isEqualTo("warm");

        relay.stopForwarding(); // the three reach nobody and nothing comes back...
        List<CompletableFuture<Object>> inFlight = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          inFlight.add(pipeline.evalsha(ECHO, List.of("k"), List.of("lost " + i)));
        }
        assertThat(pipeline.unansweredCount()).isEqualTo(3);
        relay.close(); // ...until the connection is cut
        for (CompletableFuture<Object> call : inFlight) {
          assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS))
              .hasCauseInstanceOf(JedisConnectionException.class);
        }
        assertThat(pipeline.unansweredCount()).isZero();

        relay.resumeForwarding();
        relay.open();
        assertThat(pipeline.evalsha(ECHO, List.of("k"), List.of("again")).get(10, TimeUnit.SECONDS))
            .isEqualTo("again");
      }
    }
  }

  @Test
  void repliesOverdueByTheReadTimeoutFailEveryCallInFlight(TestRedis test) throws Exception {
    test.redis().scriptLoad(ECHO.source());
    URI server = URI.create(test.url());
    try (OutageRelay relay = new OutageRelay(server.getHost(), server.getPort())) {
      relay.open();
      try (ScriptPipeline pipeline =
          new ScriptPipeline(
              () -> new HostAndPort("127.0.0.1", relay.port()), CONFIG, "test-pipeline")) {
        assertThat(pipeline.evalsha(ECHO, List.of("k"), List.of("warm")).get(10, TimeUnit.SECONDS))
            .isEqualTo("warm");
        relay.silenceConnections();
        List<CompletableFuture<Object>> inFlight = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          inFlight.add(pipeline.evalsha(ECHO, List.of("k"), List.of("silent " + i)));
        }
        for (CompletableFuture<Object> call : inFlight) {
          assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS))
              .hasCauseInstanceOf(JedisConnectionException.class);
        }
        assertThat(pipeline.evalsha(ECHO, List.of("k"), List.of("new")).get(10, TimeUnit.SECONDS))
            .as("a new connection, which the relay passes")
            .isEqualTo("new");
      }
    }
  }
}
