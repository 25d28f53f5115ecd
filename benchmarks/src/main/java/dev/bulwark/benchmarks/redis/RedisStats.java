package dev.bulwark.benchmarks.redis;

import java.util.HashMap;
import java.util.Map;
import redis.clients.jedis.Jedis;

/**
 * One reading of Redis's own counters ({@code INFO commandstats}, {@code cpu}, {@code memory}), so
 * that a phase can be described by the difference of two readings: what the server did, measured by
 * the server, whatever the load of the machine. The counters are server-wide: other clients of the
 * same server count too, which {@link #calls} lets a caller check against its own count.
 *
 * @param commands calls and microseconds per command name ({@code evalsha}, {@code lpop}, …); a
 *     command a script runs counts under its own name as well as in the script's time
 * @param cpuMicros user plus system CPU time of the server
 * @param usedMemory {@code used_memory}, in bytes
 */
record RedisStats(Map<String, long[]> commands, long cpuMicros, long usedMemory) {

  static RedisStats read(Jedis connection) {
    Map<String, long[]> commands = new HashMap<>();
    for (String line : connection.info("commandstats").split("\\r?\\n")) {
      if (line.startsWith("cmdstat_")) {
        String name = line.substring("cmdstat_".length(), line.indexOf(':'));
        commands.put(name, new long[] {field(line, "calls="), field(line, "usec=")});
      }
    }
    double cpuSeconds = 0;
    for (String line : connection.info("cpu").split("\\r?\\n")) {
      if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
        cpuSeconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    long usedMemory = 0;
    for (String line : connection.info("memory").split("\\r?\\n")) {
      if (line.startsWith("used_memory:")) {
        usedMemory = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    return new RedisStats(commands, Math.round(cpuSeconds * 1e6), usedMemory);
  }

  /** Calls of {@code command} since {@code before}. */
  long calls(RedisStats before, String command) {
    return of(command)[0] - before.of(command)[0];
  }

  /** Microseconds the server spent in {@code command} since {@code before}. */
  long micros(RedisStats before, String command) {
    return of(command)[1] - before.of(command)[1];
  }

  /** Microseconds per call of {@code command} since {@code before}: its usec_per_call then. */
  double microsPerCall(RedisStats before, String command) {
    long calls = calls(before, command);
    return calls == 0 ? Double.NaN : micros(before, command) / (double) calls;
  }

  private long[] of(String command) {
    return commands.getOrDefault(command, new long[2]);
  }

  private static long field(String line, String name) {
    int start = line.indexOf(name) + name.length();
    int end = line.indexOf(',', start);
    return Long.parseLong(end < 0 ? line.substring(start) : line.substring(start, end));
  }
}
