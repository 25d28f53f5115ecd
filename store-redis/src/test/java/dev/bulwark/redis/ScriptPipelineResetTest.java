package dev.bulwark.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.redis.client.LuaScript;
import dev.bulwark.redis.client.ScriptPipeline;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A server that resets the pipeline's connection while it is idle (a Redis that dies between two
 * calls): the next call's write fails with a broken pipe, and Jedis, closing the connection, throws
 * again as it flushes what that write left buffered. The call must still come back as a failed
 * stage, never a throw past the pipeline and never a stage left unanswered (a caller waiting for it
 * would wait for ever); the call after that connects again.
 */
@Timeout(60)
class ScriptPipelineResetTest {

  private static final LuaScript ECHO = LuaScript.load("echo_for_test");

  @Test
  void aWriteOnAResetConnectionFailsItsCallAndTheNextCallConnectsAgain() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      // the reset waits until the first reply was read: a reset can discard what the client has
      // received and not read yet, and the connection must be idle when it breaks
      CountDownLatch firstAnswered = new CountDownLatch(1);
      CompletableFuture<Void> reset =
          CompletableFuture.runAsync(
              () -> {
                try {
                  Socket first = server.accept();
                  answerOneCall(first);
                  if (!firstAnswered.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the first reply was not read");
                  }
                  first.setSoLinger(true, 0); // closing sends a reset, not a FIN
                  first.close();
                  // the test's probe, then the pipeline connecting again
                  for (int i = 0; i < 2; i++) {
                    try (Socket next = server.accept()) {
                      answerOneCall(next);
                    }
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      try (ScriptPipeline pipeline =
          new ScriptPipeline(
              () -> new HostAndPort("127.0.0.1", server.getLocalPort()),
              DefaultJedisClientConfig.builder()
                  .protocol(RedisProtocol.RESP2)
                  .socketTimeoutMillis(2_000)
                  .connectionTimeoutMillis(2_000)
                  .build(),
              "reset-pipeline")) {
        assertThat(pipeline.evalsha(ECHO, List.of("k"), List.of("a")).get(10, TimeUnit.SECONDS))
            .isEqualTo(1L);
        firstAnswered.countDown();
        // the reset has reached this side: writes now fail with a broken pipe
        waitForTheReset(server);

        CompletableFuture<Object> onTheResetConnection =
            pipeline.evalsha(ECHO, List.of("k"), List.of("b"));
        assertThatThrownBy(() -> onTheResetConnection.get(10, TimeUnit.SECONDS))
            .isInstanceOf(ExecutionException.class)
            .hasCauseInstanceOf(JedisConnectionException.class);
        assertThat(pipeline.unansweredCount()).isZero();

        assertThat(pipeline.evalsha(ECHO, List.of("k"), List.of("c")).get(10, TimeUnit.SECONDS))
            .as("the next call, on a new connection")
            .isEqualTo(1L);
      }
      reset.get(10, TimeUnit.SECONDS);
    }
  }

  /**
   * Answers the commands of a connection (RESP arrays of bulk strings): those Jedis sends as it
   * connects ({@code HELLO} its protocol, others, as the pipeline's {@code SCRIPT LOAD}, {@code
   * +OK}), and the first {@code EVALSHA} (or the probe's {@code PING}) {@code :1}, after which it
   * returns.
   */
  private static void answerOneCall(Socket socket) throws Exception {
    InputStream in = socket.getInputStream();
    OutputStream out = socket.getOutputStream();
    while (true) {
      int parts = Integer.parseInt(readLine(in).substring(1)); // *<n>
      String name = null;
      for (int i = 0; i < parts; i++) {
        int length = Integer.parseInt(readLine(in).substring(1)); // $<len>
        byte[] part = in.readNBytes(length + 2);
        if (i == 0) {
          name = new String(part, 0, length, StandardCharsets.US_ASCII);
        }
      }
      boolean call = "EVALSHA".equalsIgnoreCase(name) || "PING".equalsIgnoreCase(name);
      String answer =
          call
              ? ":1\r\n"
              : "HELLO".equalsIgnoreCase(name) ? "*2\r\n$5\r\nproto\r\n:2\r\n" : "+OK\r\n";
      out.write(answer.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      if (call) {
        return;
      }
    }
  }

  private static String readLine(InputStream in) throws Exception {
    StringBuilder line = new StringBuilder();
    for (int b = in.read(); b != '\r'; b = in.read()) {
      if (b < 0) {
        throw new IllegalStateException("the client closed the connection");
      }
      line.append((char) b);
    }
    in.read(); // \n
    return line.toString();
  }

  /**
   * Waits until the server side sent its reset: a write on the reset connection then fails at once.
   * Probing with a plain socket to the same server tells that the accepting thread moved on past
   * the first connection's close.
   */
  private static void waitForTheReset(ServerSocket server) throws Exception {
    try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
      // the server accepts this one only after it closed the first: it answers its call
      OutputStream out = probe.getOutputStream();
      out.write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(readLine(probe.getInputStream())).isEqualTo(":1");
    }
  }
}
