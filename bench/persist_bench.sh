#!/usr/bin/env bash
# Durability benchmarks, rankd vs redis-server 7.0 configured the same way:
#
# 1. Write throughput with the append-only log on (appendonly yes, save ""),
#    appendfsync everysec and always, with redis-benchmark:
#      redis-benchmark -p PORT -c $CLIENTS -n $N -r 1000000 -q ZADD lb __rand_int__ m:__rand_int__
#    servers alternating, $ROUNDS rounds, every result and the median printed.
# 2. Load time of a snapshot holding one sorted set of $COUNT elements (16-byte
#    members, bench/zset_loader.py): SAVE, SHUTDOWN NOSAVE, restart; reports the
#    server's own "DB loaded from disk: X seconds" and the wall time from exec to
#    the first PONG.
#
#   bench/persist_bench.sh                        # uses build/rankd
#   RANKD_BIN=build-persist/rankd BENCH_LOAD_COUNT=2000000 bench/persist_bench.sh
# Knobs: BENCH_N (200000), BENCH_CLIENTS (50), BENCH_ROUNDS (3),
#        BENCH_LOAD_COUNT (10000000), BENCH_SKIP_WRITES=1, BENCH_SKIP_LOAD=1,
#        BENCH_DIR (a scratch directory on the disk to measure; default mktemp -d).
set -euo pipefail
cd "$(dirname "$0")/.."

RANKD_BIN=${RANKD_BIN:-build/rankd}
REDIS_BIN=${REDIS_BIN:-/usr/bin/redis-server}
N=${BENCH_N:-200000}
CLIENTS=${BENCH_CLIENTS:-50}
ROUNDS=${BENCH_ROUNDS:-3}
COUNT=${BENCH_LOAD_COUNT:-10000000}
WORK=${BENCH_DIR:-$(mktemp -d)}
PORT_RANKD=${PORT_RANKD:-7810}
PORT_REDIS=${PORT_REDIS:-7811}
# shellcheck source=bench/persist_lib.sh
source bench/persist_lib.sh

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "# machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo);" \
     "scratch dir $WORK on $(df --output=source "$WORK" | tail -1)"
echo "# rankd: $RANKD_BIN   redis: $($REDIS_BIN --version | cut -d' ' -f3)"

if [ -z "${BENCH_SKIP_WRITES:-}" ]; then
  echo
  echo "## ZADD throughput, appendonly yes, $CLIENTS clients, $N requests, pipeline 1"
  echo "| appendfsync | rankd req/s (median) | redis-server req/s (median) | rankd / redis | rankd runs | redis runs |"
  echo "|---|---|---|---|---|---|"
  for fsync in everysec always; do
    r_runs=() s_runs=()
    for round in $(seq 1 "$ROUNDS"); do
      for name in rankd redis; do
        port=$PORT_RANKD; [ $name = redis ] && port=$PORT_REDIS
        dir="$WORK/w-$name-$fsync-$round"
        start $name $port "$dir" --save "" --appendonly yes --appendfsync $fsync
        pid=$STARTED_PID
        rps=$(redis-benchmark -p $port -c "$CLIENTS" -n "$N" -r 1000000 -q \
              ZADD lb __rand_int__ m:__rand_int__ | tr '\r' '\n' |
              awk '/requests per second/ {for (i=1;i<=NF;i++) if ($(i+1) ~ /^requests/) print $i}' | tail -1)
        stop $port $pid
        rm -rf "$dir"
        if [ $name = rankd ]; then r_runs+=("$rps"); else s_runs+=("$rps"); fi
      done
    done
    rm=$(printf '%s\n' "${r_runs[@]}" | median)
    sm=$(printf '%s\n' "${s_runs[@]}" | median)
    ratio=$(awk -v a="$rm" -v b="$sm" 'BEGIN {printf "%.2f", a / b}')
    echo "| $fsync | $rm | $sm | $ratio | ${r_runs[*]} | ${s_runs[*]} |"
  done
fi

if [ -z "${BENCH_SKIP_LOAD:-}" ]; then
  echo
  echo "## Loading a snapshot of one sorted set with $COUNT elements (16-byte members)"
  echo "| server | file | file size | 'DB loaded from disk' | exec to first PONG | RSS after load |"
  echo "|---|---|---|---|---|---|"
  for name in rankd redis; do
    port=$PORT_RANKD; [ $name = redis ] && port=$PORT_REDIS
    dir="$WORK/load-$name"
    start $name $port "$dir" --save "" --appendonly no
    pid=$STARTED_PID
    /usr/bin/python3 bench/zset_loader.py --port $port --count "$COUNT" >/dev/null
    redis-cli -p $port SAVE >/dev/null
    stop $port $pid
    size=$(du -h "$dir/dump.rdb" | cut -f1)
    sync
    t0=$(now_ms)
    start $name $port "$dir" --save "" --appendonly no
    pid=$STARTED_PID
    t1=$(now_ms)
    loaded=$(grep -o 'DB loaded from disk: [0-9.]* seconds' "$dir/server.log" | tail -1 |
             awk '{print $5 " s"}')
    card=$(redis-cli -p $port ZCARD lb)
    rss=$(awk '/VmRSS/ {printf "%.0f MiB", $2/1024}' /proc/$pid/status)
    [ "$card" = "$COUNT" ] || { echo "$name loaded $card elements, expected $COUNT" >&2; exit 1; }
    echo "| $name | dump.rdb | $size | $loaded | $(secs $((t1 - t0))) | $rss |"
    stop $port $pid
    rm -rf "$dir"
  done
fi
