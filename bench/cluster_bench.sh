#!/usr/bin/env bash
# rankd vs redis-server 7.0 as Redis Cluster nodes (issue 29), side by side:
#   1. aggregate ZINCRBY and ZSCORE throughput of an N-master cluster, redis-benchmark
#      --cluster (one board per master: 'board:{tag}', random members), pipeline 1 and 16;
#   2. a reshard of RESHARD_SLOTS slots under a concurrent INCR writer
#      (bench/cluster_reshard_load.py): reshard time, writes/s meanwhile, write errors,
#      longest writer stall, counters lost or applied twice.
# Each cluster is started with scripts/cluster.sh (no persistence, no replicas), alone
# on the machine in its turn. Prints a markdown table.
#
#   bench/cluster_bench.sh                         # build/rankd vs /usr/bin/redis-server
#   ONLY=redis bench/cluster_bench.sh              # just one side (redis or rankd)
# Knobs: CLUSTER_BENCH_NODES (3), BENCH_N (200000 requests per test), BENCH_CLIENTS (50),
# BENCH_RANDOM (100000 members per board), RESHARD_SLOTS (1000), RESHARD_WRITERS (2),
# RANKD_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."

NODES=${CLUSTER_BENCH_NODES:-3}
N=${BENCH_N:-200000}
CLIENTS=${BENCH_CLIENTS:-50}
RANDOM_MEMBERS=${BENCH_RANDOM:-100000}
RESHARD_SLOTS=${RESHARD_SLOTS:-1000}
RESHARD_WRITERS=${RESHARD_WRITERS:-2}
RANKD_BIN=${RANKD_BIN:-build/rankd}
SIDES=${ONLY:-rankd redis}
WORK=$(mktemp -d /tmp/cluster-bench.XXXXXX)
# shellcheck disable=SC2154  # s is the trap loop's own variable
trap 'for s in rankd redis; do DIR=$WORK/$s NODES=$NODES PORT=$(base_port $s) \
  bash scripts/cluster.sh stop >/dev/null 2>&1 || true; done; rm -rf "$WORK"' EXIT

# Node and bus ports below Linux's ephemeral range (32768+), so no outgoing connection
# holds one: rankd 17001.. (bus 27001..), redis-server 18001.. (bus 28001..).
base_port() { [ "$1" = rankd ] && echo 17000 || echo 18000; }

rps() {   # port pipeline command...: requests/s from redis-benchmark --csv
  local port=$1 pipe=$2; shift 2
  redis-benchmark --cluster -h 127.0.0.1 -p "$port" -n "$N" -c "$CLIENTS" -P "$pipe" \
    -r "$RANDOM_MEMBERS" --csv "$@" 2>/dev/null | tail -1 | cut -d, -f2 | tr -d '"'
}

declare -A RESULT
for side in $SIDES; do
  port=$(base_port "$side")
  bin=$([ "$side" = rankd ] && echo "$RANKD_BIN" || echo /usr/bin/redis-server)
  echo "cluster_bench: $side: $NODES masters ($bin)" >&2
  if ! DIR=$WORK/$side NODES=$NODES REPLICAS=0 PORT=$port BIN=$bin \
       bash scripts/cluster.sh start >"$WORK/$side.start.log" 2>&1; then
    echo "cluster_bench: $side cluster did not start (see below); its column is n/a" >&2
    tail -3 "$WORK/$side.start.log" >&2
    DIR=$WORK/$side NODES=$NODES PORT=$port bash scripts/cluster.sh stop >/dev/null 2>&1 || true
    continue
  fi
  first=$((port + 1))
  for pipe in 1 16; do
    RESULT[$side,zincrby,$pipe]=$(rps "$first" "$pipe" ZINCRBY 'board:{tag}' 1 \
      'member:__rand_int__')
    RESULT[$side,zscore,$pipe]=$(rps "$first" "$pipe" ZSCORE 'board:{tag}' 'member:__rand_int__')
  done
  RESULT[$side,reshard]=$(/usr/bin/python3 bench/cluster_reshard_load.py "$first" \
    "$RESHARD_SLOTS" "$RESHARD_WRITERS")
  DIR=$WORK/$side NODES=$NODES PORT=$port bash scripts/cluster.sh stop >/dev/null
done

field() {  # side key: a field of the reshard JSON, or n/a
  local j=${RESULT[$1,reshard]:-}
  [ -z "$j" ] && { echo n/a; return; }
  /usr/bin/python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$j" "$2"
}
ratio() {
  /usr/bin/python3 -c 'import sys
a, b = sys.argv[1], sys.argv[2]
print("%.2f" % (float(a) / float(b)) if a not in ("", "n/a") and b not in ("", "n/a")
      and float(b) else "n/a")' "$1" "$2"
}

echo
echo "### Cluster: $NODES masters on one machine, redis-benchmark --cluster, $CLIENTS clients, $N requests"
echo
echo "| test | rankd req/s | redis-server req/s | rankd/redis |"
echo "|---|---:|---:|---:|"
for t in zincrby zscore; do
  for pipe in 1 16; do
    a=${RESULT[rankd,$t,$pipe]:-n/a}; b=${RESULT[redis,$t,$pipe]:-n/a}
    echo "| ${t^^} P$pipe | $a | $b | $(ratio "$a" "$b") |"
  done
done
echo
echo "### Reshard of $RESHARD_SLOTS slots under $RESHARD_WRITERS INCR writers (redis-py RedisCluster)"
echo
echo "| measure | rankd | redis-server |"
echo "|---|---:|---:|"
for k in reshard_ok reshard_s writes_per_s_during write_errors max_stall_ms lost doubled; do
  echo "| $k | $(field rankd $k) | $(field redis $k) |"
done
for side in $SIDES; do
  e=$(field "$side" first_error)
  [ -n "$e" ] && [ "$e" != n/a ] && echo "$side first write error: $e"
done
exit 0
