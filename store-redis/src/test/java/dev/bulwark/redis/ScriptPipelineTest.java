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
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The store's pipelined connection on the real Redis, through a relay the test can silence and cut:
 * many calls in flight each get their own reply in the order written, an error reply fails only its
 * call, and a connection cut or silent past the read timeout with three calls in flight fails all
 * three as "may have run" and connects again for the next call.
 */
@ExtendWith(RedisExtension.class)
@Timeout(60)
class ScriptPipelineTest {

  private static final LuaScript ECHO = LuaScript.load("echo_for_test");

  /** A script whose SHA Redis has never seen: its call is answered NOSCRIPT. */
  private static final LuaScript NEVER_LOADED = LuaScript.load("echo_for_test_unknown");

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
          pipeline.evalsha(NEVER_LOADED, List.of(test.prefix() + "k"), List.of("x"));
      CompletableFuture<Object> after =
          pipeline.evalsha(ECHO, List.of(test.prefix() + "k"), List.of("after"));

      for (int i = 0; i < 200; i++) {
        assertThat(replies.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("call " + i);
      }
      assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(JedisNoScriptException.class);
      assertThat(after.get(10, TimeUnit.SECONDS)).isEqualTo("after");
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
