package dev.bulwark.benchmarks.redis;

import java.lang.management.ManagementFactory;

/** The machine's one-minute load average, printed beside every figure taken on a shared host. */
final class MachineLoad {

  static double oneMinute() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private MachineLoad() {}
}
