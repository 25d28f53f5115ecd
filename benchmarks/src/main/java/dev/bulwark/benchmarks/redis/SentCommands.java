package dev.bulwark.benchmarks.redis;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the benchmark's own connections sent, out of a {@link MonitorTap} recording. A connection is
 * the benchmark's when it touched a key that starts with {@code bench:} in the recording; other
 * clients of the same server are counted apart.
 *
 * @param byName commands sent on the wire, by name
 * @param inScripts commands that the scripts of those calls ran inside Redis
 * @param others commands of other connections, left out
 */
record SentCommands(Map<String, Integer> byName, int inScripts, int others) {

  static SentCommands of(List<MonitorTap.Command> commands) {
    Set<String> ours =
        commands.stream()
            .filter(c -> c.fromClient() && c.line().contains("bench:"))
            .map(MonitorTap.Command::client)
            .collect(Collectors.toSet());
    Map<String, Integer> byName = new TreeMap<>();
    int inScripts = 0;
    int others = 0;
    // a script's commands follow the line of the EVAL or EVALSHA that ran it
    boolean lastWasOurs = false;
    for (MonitorTap.Command command : commands) {
      if (!command.fromClient()) {
        inScripts += lastWasOurs ? 1 : 0;
      } else if (ours.contains(command.client())) {
        byName.merge(command.name(), 1, Integer::sum);
        lastWasOurs = true;
      } else {
        others++;
        lastWasOurs = false;
      }
    }
    return new SentCommands(byName, inScripts, others);
  }

  int total() {
    return byName.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** For example {@code del 1.00, evalsha 2.00}. */
  String perCall(int calls) {
    return byName.entrySet().stream()
        .map(e -> String.format("%s %.2f", e.getKey(), e.getValue() / (double) calls))
        .collect(Collectors.joining(", "));
  }
}
