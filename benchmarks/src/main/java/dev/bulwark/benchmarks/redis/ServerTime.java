package dev.bulwark.benchmarks.redis;

import redis.clients.jedis.Jedis;

/**
 * The time Redis has spent, read from {@code INFO}: on the CPU (user plus system), and running
 * scripts ({@code usec} of EVAL and EVALSHA in {@code commandstats}, which include the commands
 * their scripts call). Counted for every client of the server, so take deltas while nothing else
 * uses it.
 */
final class ServerTime implements AutoCloseable {

  private final Jedis connection = new Jedis(RedisTarget.host(), RedisTarget.port());

  long scriptMicros() {
    long micros = 0;
    for (String line : connection.info("commandstats").split("\\r?\\n")) {
      if (line.startsWith("cmdstat_eval:") || line.startsWith("cmdstat_evalsha:")) {
        int start = line.indexOf("usec=") + "usec=".length();
        micros += Long.parseLong(line.substring(start, line.indexOf(',', start)));
      }
    }
    return micros;
  }

  long cpuMicros() {
    double seconds = 0;
    for (String line : connection.info("cpu").split("\\r?\\n")) {
      if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
        seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    return Math.round(seconds * 1e6);
  }

  @Override
  public void close() {
    connection.close();
  }
}
