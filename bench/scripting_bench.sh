#!/usr/bin/env bash
# EVALSHA of the seed-000 leaderboard scripts (tied rank; a page of 10 ranked rows as JSON)
# on a 1M-member board, rankd vs redis-server 7.0 side by side, same client, same data.
#
#   bench/scripting_bench.sh [rankd-binary] [requests] [clients]
#
# Prints one line per (server, script) with redis-benchmark's requests/s and p50 latency.
set -euo pipefail
RANKD=${1:-$(dirname "$0")/../build/rankd}
N=${2:-20000}
C=${3:-50}
MEMBERS=${MEMBERS:-1000000}
RANKD_PORT=${RANKD_PORT:-17411}
REDIS_PORT=${REDIS_PORT:-17412}

SEEDS="$(dirname "$0")/../tests/seed_scripts"  # seed 000's scripts, verbatim
RANK=$(cat "$SEEDS/seed000_rank.lua")
PAGE=$(cat "$SEEDS/seed000_page.lua")

cleanup() {
  redis-cli -p "$RANKD_PORT" shutdown nosave >/dev/null 2>&1 || true
  redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
}
trap cleanup EXIT
"$RANKD" --port "$RANKD_PORT" --save '' --appendonly no >/tmp/rankd_bench.log 2>&1 &
redis-server --port "$REDIS_PORT" --save '' --appendonly no --daemonize yes >/dev/null
sleep 1

# 1M members m:000000000000.. with score = contribution (0..9999, ~100 ties each) + a
# time fraction, as the seed's design 2 encodes it.
python3 - "$MEMBERS" >/tmp/board.resp <<'PY'
import random, sys
n = int(sys.argv[1]); rng = random.Random(7); out = sys.stdout.buffer
def cmd(*a):
    out.write(b"*%d\r\n" % len(a) + b"".join(b"$%d\r\n%s\r\n" % (len(x), x) for x in a))
batch = []
for i in range(n):
    score = rng.randrange(10000) + (2**31 - 1 - (1700000000 + i)) * 1e-13
    batch += [repr(score).encode(), b"m:%012d" % i]
    if len(batch) == 2000:
        cmd(b"ZADD", b"board", *batch); batch = []
if batch: cmd(b"ZADD", b"board", *batch)
PY
for port in "$RANKD_PORT" "$REDIS_PORT"; do
  redis-cli -p "$port" --pipe </tmp/board.resp >/dev/null
done

bench() {  # name port script-args...
  local name=$1 port=$2; shift 2
  redis-benchmark -p "$port" -n "$N" -c "$C" -r "$MEMBERS" --csv "$@" | tail -1 |
    awk -F, -v n="$name" '{gsub(/"/,""); printf "%-26s %10s req/s  p50 %s ms  p99 %s ms\n", n, $2, $5, $7}'
}
for port in "$RANKD_PORT" "$REDIS_PORT"; do
  server=$([ "$port" = "$RANKD_PORT" ] && echo rankd || echo redis-7.0)
  echo "$server: zcard=$(redis-cli -p "$port" zcard board)"
  rank_sha=$(redis-cli -p "$port" script load "$RANK")
  page_sha=$(redis-cli -p "$port" script load "$PAGE")
  bench "$server tied-rank" "$port" evalsha "$rank_sha" 2 board m:__rand_int__
  bench "$server page top (0-9)" "$port" evalsha "$page_sha" 1 board 0 9
  bench "$server page deep (500k)" "$port" evalsha "$page_sha" 1 board 500000 500009
done
