#!/usr/bin/env bash
# Runs the same JMH benchmarks from two builds' jars in turn — before, after, before, after… — so
# that both are measured in one session on the same (possibly loaded) machine, then prints each
# case's ratio to the floor of its own run, the median over the rounds per build and the targets
# (dev.bulwark.benchmarks.BeforeAfter, from the second jar).
#
#   benchmarks/scripts/before-after.sh <before.jar> <after.jar> <out dir> [rounds] [JMH arguments…]
#
# The JMH arguments default to the two interceptor benchmarks with their annotations' settings,
# 'ThroughInterceptors'; pass e.g. 'RedisThroughInterceptors.(floor|bulkhead).*' -wi 1 -i 2 for a
# shorter run. Keep each jar outside the repository (a later build would overwrite target/).
# Every run's CSV and log stay in <out dir> (<label>-<round>.csv / .log), with the load average.
set -euo pipefail
before=$1 after=$2 out=$3
rounds=${4:-3}
shift $(( $# >= 4 ? 4 : 3 ))
jmh=("$@")
if [ ${#jmh[@]} -eq 0 ]; then jmh=(ThroughInterceptors); fi
java=${JAVA:-java}
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
  for label in before after; do
    jar=$before
    if [ "$label" = after ]; then jar=$after; fi
    echo "$(date -u +%H:%M:%S) round $round $label: load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
    LC_ALL=C "$java" -jar "$jar" "${jmh[@]}" -rf csv -rff "$out/$label-$round.csv" \
      > "$out/$label-$round.log" 2>&1 || echo "  $label round $round failed: see $out/$label-$round.log"
  done
done
echo "$(date -u +%H:%M:%S) done: load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
"$java" -cp "$after" dev.bulwark.benchmarks.BeforeAfter "$out" before after
