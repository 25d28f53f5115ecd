package dev.bulwark.quarkus.deployment.devservices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** The redis-server Bulwark's Dev Service starts: private, answering, and gone once closed. */
class RedisServerProcessTest {

  @Test
  void startsAServerOfItsOwnAndStopsIt() throws Exception {
    Optional<Path> executable = RedisServers.onPath();
    if (!"true".equalsIgnoreCase(System.getenv("CI"))) {
      assumeThat(executable).as("a redis-server on the PATH").isPresent();
    }
    RedisServerProcess server = RedisServerProcess.start(executable.orElseThrow());
    long pid;
    try (server;
        Jedis jedis = new Jedis("127.0.0.1", server.port())) {
      assertThat(server.port()).isNotEqualTo(6379);
      assertThat(server.url()).isEqualTo("redis://127.0.0.1:" + server.port());
      pid = Long.parseLong(RedisServers.field(jedis.info("server"), "process_id"));
      assertThat(pid).isEqualTo(server.pid());
      assertThat(jedis.set("bulwark-devservices-probe", "1")).isEqualTo("OK");
      assertThat(RedisServers.field(jedis.info("persistence"), "aof_enabled")).isEqualTo("0");
    }
    assertThat(server.isAlive()).isFalse();
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
    assertThat(refusesConnections(server.port())).as("port closed after close()").isTrue();
  }

  private static boolean refusesConnections(int port) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }
}
