package dev.bulwark.it.support;

import java.util.ArrayList;
import java.util.List;

/** One node's {@code CLUSTER NODES} reply: who is primary, whose replica, which slots. */
final class ClusterView {

  /** One line: a node, its role, the primary it replicates and the slot ranges it serves. */
  record Node(
      String id, int port, boolean primary, boolean failed, String primaryId, List<int[]> slots) {
    boolean serves(int slot) {
      return slots.stream().anyMatch(range -> range[0] <= slot && slot <= range[1]);
    }
  }

  final List<Node> nodes;

  private ClusterView(List<Node> nodes) {
    this.nodes = List.copyOf(nodes);
  }

  static ClusterView parse(String clusterNodes) {
    List<Node> nodes = new ArrayList<>();
    for (String line : clusterNodes.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.trim().split(" ");
      String address = f[1].substring(0, f[1].indexOf('@'));
      int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
      String flags = f[2];
      List<int[]> slots = new ArrayList<>();
      for (int i = 8; i < f.length; i++) {
        if (f[i].startsWith("[")) {
          continue; // a slot being imported or migrated: served by its owner until it moves
        }
        String[] range = f[i].split("-");
        int from = Integer.parseInt(range[0]);
        slots.add(new int[] {from, range.length > 1 ? Integer.parseInt(range[1]) : from});
      }
      nodes.add(
          new Node(
              f[0],
              port,
              flags.contains("master"),
              flags.contains("fail") && !flags.contains("fail?"),
              f[3],
              slots));
    }
    return new ClusterView(nodes);
  }

  Node primaryOf(int slot) {
    return nodes.stream()
        .filter(n -> n.primary() && n.serves(slot))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no primary serves slot " + slot));
  }
}
