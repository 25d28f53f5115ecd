#!/usr/bin/env bash
# Redis server time of one bulkhead's queue scripts as its queue grows, read from INFO commandstats
# (usec_per_call of EVALSHA) on a Redis server of its own: enqueueing N requests on a bulkhead of 1,
# then 200 inspects (what a cluster gauge's scrape runs) and 200 cancels of requests in the middle
# of the queue. The scripts are built as the store builds them (lib/common.lua, then the libraries).
#
#   benchmarks/scripts/queue-script-cost.sh <scripts dir> <redis port> <queued> <queue key> <waiters key>
#
# e.g. against the store's scripts, on a server nobody else uses:
#   redis-server --port 6499 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes
#   benchmarks/scripts/queue-script-cost.sh store-redis/src/main/resources/dev/bulwark/redis/scripts \
#       6499 5000 'b{q}:queue' 'b{q}:waiters'
# It flushes that server's database: never point it at a server that holds anything.
set -euo pipefail
scripts=$1 port=$2 queued=$3 queue=$4 waiters=$5
redis="redis-cli -p $port"
build() { cat "$scripts/lib/common.lua"; for lib in "$@"; do echo; cat "$scripts/lib/$lib.lua"; done; }
per_call() { $redis INFO commandstats | grep '^cmdstat_evalsha' | sed 's/.*usec_per_call=\([0-9.]*\).*/\1/'; }
acquire=$($redis SCRIPT LOAD "$(build expiry queue since permits; echo; cat "$scripts/permit_acquire.lua")")
inspect=$($redis SCRIPT LOAD "$(build expiry queue since; echo; cat "$scripts/permit_inspect.lua")")
cancel=$($redis SCRIPT LOAD "$(build expiry queue since permits; echo; cat "$scripts/permit_cancel.lua")")
keys="4 b{q}:holders $queue $waiters b{q}:state"
secret=0123456789abcdef0123456789abcdef
$redis FLUSHDB >/dev/null
$redis EVALSHA "$acquire" $keys holder 1 600000 1 p: $secret >/dev/null
$redis CONFIG RESETSTAT >/dev/null
for i in $(seq 1 "$queued"); do echo "EVALSHA $acquire $keys m$i 1 600000 1 p: $secret"; done | $redis >/dev/null
enqueue=$(per_call)
$redis CONFIG RESETSTAT >/dev/null
for _ in $(seq 1 200); do echo "EVALSHA $inspect $keys"; done | $redis >/dev/null
inspected=$(per_call)
$redis CONFIG RESETSTAT >/dev/null
for i in $(seq 1 200); do echo "EVALSHA $cancel $keys m$((queued / 2 + i)) 1 p: 0"; done | $redis >/dev/null
cancelled=$(per_call)
echo "queued=$queued enqueue_us=$enqueue inspect_us=$inspected cancel_us=$cancelled"
