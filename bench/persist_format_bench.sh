#!/usr/bin/env bash
# Persistence file formats, rankd vs redis-server 7.0 on the same data set:
# one sorted set of $COUNT members (bench/zset_loader.py, 16-byte members) plus
# $MIXED keys each of strings, hashes, lists and sets (redis-benchmark -r).
#
# Per server: BGSAVE wall time (BGSAVE to rdb_bgsave_in_progress:0) and dump.rdb
# size; restart on that dump.rdb (exec to the first PONG, and the server's own
# "loaded" line); CONFIG SET appendonly yes, then BGREWRITEAOF wall time and the
# size of the append-only directory; restart on the append-only directory; then
# ZADD throughput with appendonly yes appendfsync everysec (redis-benchmark,
# $CLIENTS clients, $N requests) and the server's CPU time per request
# (utime+stime from /proc/<pid>/stat over the run).
#
#   bench/persist_format_bench.sh                  # build/rankd, 1M members
#   RANKD_BIN=/tmp/old-rankd BENCH_LOAD_COUNT=200000 bench/persist_format_bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RANKD_BIN=${RANKD_BIN:-build/rankd}
REDIS_BIN=${REDIS_BIN:-/usr/bin/redis-server}
COUNT=${BENCH_LOAD_COUNT:-1000000}
MIXED=${BENCH_MIXED:-100000}
N=${BENCH_N:-200000}
CLIENTS=${BENCH_CLIENTS:-50}
SERVERS=${BENCH_SERVERS:-rankd redis}
WORK=${BENCH_DIR:-$(mktemp -d)}
PORT_RANKD=${PORT_RANKD:-7820}
PORT_REDIS=${PORT_REDIS:-7821}
TICKS=$(getconf CLK_TCK)
# shellcheck source=bench/persist_lib.sh
source bench/persist_lib.sh

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

wait_info() {  # port field: until INFO persistence says <field>:0
  while redis-cli -p "$1" INFO persistence | tr -d '\r' | grep -q "^$2:1"; do sleep 0.02; done
}

dir_size() { du -sb "$1" | awk '{printf "%.1f MB", $1/1e6}'; }

echo "# machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
echo "# rankd: $RANKD_BIN   redis: $($REDIS_BIN --version | cut -d' ' -f3)"
echo "# data: 1 sorted set of $COUNT members + $MIXED keys each of string/hash/list/set"
echo
echo "| server | BGSAVE | dump.rdb | load dump.rdb | BGREWRITEAOF | appendonlydir | load AOF | ZADD/s everysec | CPU us/req |"
echo "|---|---|---|---|---|---|---|---|---|"
for name in $SERVERS; do
  port=$PORT_RANKD; [ "$name" = redis ] && port=$PORT_REDIS
  dir="$WORK/$name"
  rm -rf "$dir"
  start "$name" $port "$dir" --save "" --appendonly no
  pid=$STARTED_PID
  /usr/bin/python3 bench/zset_loader.py --port $port --count "$COUNT" >/dev/null
  for cmd in "SET s:__rand_int__ value-of-twenty-by" "HSET h:__rand_int__ f __rand_int__" \
             "RPUSH l:__rand_int__ __rand_int__" "SADD st:__rand_int__ __rand_int__"; do
    # shellcheck disable=SC2086
    redis-benchmark -p $port -n "$MIXED" -r "$MIXED" -P 32 -q $cmd >/dev/null
  done
  t0=$(now_ms); redis-cli -p $port BGSAVE >/dev/null; sleep 0.05
  wait_info $port rdb_bgsave_in_progress; t1=$(now_ms)
  bgsave=$(secs $((t1 - t0)))
  rdb_size=$(dir_size "$dir/dump.rdb")
  keys=$(redis-cli -p $port DBSIZE)
  stop $port "$pid"
  sync
  t0=$(now_ms); start "$name" $port "$dir" --save "" --appendonly no; pid=$STARTED_PID; t1=$(now_ms)
  load_rdb=$(secs $((t1 - t0)))
  [ "$(redis-cli -p $port DBSIZE)" = "$keys" ] || { echo "$name: dump.rdb reload lost keys" >&2; exit 1; }
  redis-cli -p $port CONFIG SET appendonly yes >/dev/null; sleep 0.2
  wait_info $port aof_rewrite_in_progress
  t0=$(now_ms); redis-cli -p $port BGREWRITEAOF >/dev/null; sleep 0.05
  wait_info $port aof_rewrite_in_progress; t1=$(now_ms)
  rewrite=$(secs $((t1 - t0)))
  aof_size=$(dir_size "$dir/appendonlydir")
  stop $port "$pid"
  rm -f "$dir/dump.rdb"; sync
  t0=$(now_ms); start "$name" $port "$dir" --save "" --appendonly yes --appendfsync everysec
  pid=$STARTED_PID; t1=$(now_ms)
  load_aof=$(secs $((t1 - t0)))
  [ "$(redis-cli -p $port DBSIZE)" = "$keys" ] || { echo "$name: AOF reload lost keys" >&2; exit 1; }
  c0=$(cpu_ticks "$pid")
  rps=$(redis-benchmark -p $port -c "$CLIENTS" -n "$N" -r 1000000 -q \
        ZADD lb __rand_int__ m:__rand_int__ | tr '\r' '\n' |
        awk '/requests per second/ {for (i=1;i<=NF;i++) if ($(i+1) ~ /^requests/) print $i}' | tail -1)
  c1=$(cpu_ticks "$pid")
  cpu=$(awk -v t=$((c1 - c0)) -v hz="$TICKS" -v n="$N" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
  stop $port "$pid"
  echo "| $name | $bgsave | $rdb_size | $load_rdb | $rewrite | $aof_size | $load_aof | $rps | $cpu |"
  rm -rf "$dir"
done
