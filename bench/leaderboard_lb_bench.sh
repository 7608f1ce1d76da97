#!/usr/bin/env bash
# Native leaderboard commands (issue 7) against seed 000's Lua scripts, side by side in
# one run on a 1M-member board with ~100-way ties:
#   rankd      LB.RANK board m:<rand> MODE COMPETITION    (native tied rank)
#   redis 7.0  EVALSHA <seed tied-rank script> 2 board m:<rand>   over packed scores
#   rankd      LB.TOP board 10 MODE COMPETITION           (native ranked page)
#   redis 7.0  EVALSHA <seed page script> 1 board 0 9      over packed scores
# plus rankd running the same scripts, for reference. Same data on both: member i has
# contribution rng(0..9999) reached at time 1700000000+i; Redis stores the seed's
# "design 2" packed score, rankd a board loaded with LB.LOAD (seq = arrival order), so
# both rank identically (checked before measuring).
#
#   bench/leaderboard_lb_bench.sh [rankd-binary] [requests] [clients] [pipeline]
#
# At pipeline 1 on a small machine the loopback round trip and redis-benchmark itself
# dominate both sides; pipeline 16 (the default) measures the servers.
set -euo pipefail
cd "$(dirname "$0")/.."
RANKD=${1:-build/rankd}
N=${2:-50000}
C=${3:-50}
P=${4:-16}
MEMBERS=${MEMBERS:-1000000}
RANKD_PORT=${RANKD_PORT:-17421}
REDIS_PORT=${REDIS_PORT:-17422}
TMP=$(mktemp -d)

RANK=$(cat tests/seed_scripts/seed000_rank.lua)  # seed 000's scripts, verbatim
PAGE=$(cat tests/seed_scripts/seed000_page.lua)

cleanup() {
  redis-cli -p "$RANKD_PORT" shutdown nosave >/dev/null 2>&1 || true
  redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  rm -rf "$TMP"
}
trap cleanup EXIT
"$RANKD" --port "$RANKD_PORT" --save '' --appendonly no --dir "$TMP" >"$TMP/rankd.log" 2>&1 &
RANKD_PID=$!
redis-server --port "$REDIS_PORT" --save '' --appendonly no --dir "$TMP" --daemonize yes >/dev/null
sleep 1

python3 - "$MEMBERS" "$TMP" <<'PY'
import random, sys
n, tmp = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
packed, board = open(tmp + "/packed.resp", "wb"), open(tmp + "/board.resp", "wb")
def cmd(f, *a):
    f.write(b"*%d\r\n" % len(a) + b"".join(b"$%d\r\n%s\r\n" % (len(x), x) for x in a))
pb, bb = [], []
for i in range(n):
    c = rng.randrange(10000)
    t = 1700000000 + i
    pb += [repr(c + (2**31 - 1 - t) * 1e-13).encode(), b"m:%012d" % i]
    bb += [b"%d" % c, b"m:%012d" % i, b"%d" % (i + 1), b"%d" % (t * 1000)]
    if len(pb) == 2000:
        cmd(packed, b"ZADD", b"board", *pb); pb = []
        cmd(board, b"LB.LOAD", b"board", b"ORDER", b"desc", b"TIES", b"first", b"NEXTSEQ",
            b"%d" % (n + 1), *bb); bb = []
if pb:
    cmd(packed, b"ZADD", b"board", *pb)
    cmd(board, b"LB.LOAD", b"board", b"ORDER", b"desc", b"TIES", b"first", b"NEXTSEQ",
        b"%d" % (n + 1), *bb)
PY
redis-cli -p "$REDIS_PORT" --pipe <"$TMP/packed.resp" >/dev/null
redis-cli -p "$RANKD_PORT" --pipe <"$TMP/board.resp" >/dev/null
# The same packed data under another key on rankd, to run the seed's scripts there too.
python3 - "$TMP" <<'PY'
import sys
src = open(sys.argv[1] + "/packed.resp", "rb").read()
open(sys.argv[1] + "/packed2.resp", "wb").write(src.replace(b"$5\r\nboard\r\n", b"$6\r\npacked\r\n"))
PY
redis-cli -p "$RANKD_PORT" --pipe <"$TMP/packed2.resp" >/dev/null

rank_sha=$(redis-cli -p "$REDIS_PORT" script load "$RANK")
page_sha=$(redis-cli -p "$REDIS_PORT" script load "$PAGE")
redis-cli -p "$RANKD_PORT" script load "$RANK" >/dev/null
redis-cli -p "$RANKD_PORT" script load "$PAGE" >/dev/null

# Same answers before measuring: a few tied ranks and the first page.
for i in 12345 500000 999999; do
  m=$(printf 'm:%012d' "$i")
  a=$(redis-cli -p "$REDIS_PORT" evalsha "$rank_sha" 2 board "$m" | tail -1)
  b=$(redis-cli -p "$RANKD_PORT" lb.rank board "$m" mode competition | head -1)
  [ "$((a + 1))" = "$b" ] || { echo "rank mismatch for $m: redis $((a + 1)) rankd $b"; exit 1; }
done
echo "sizes: rankd $(redis-cli -p "$RANKD_PORT" zcard board) redis $(redis-cli -p "$REDIS_PORT" zcard board); answers agree"

REDIS_PID=$(redis-cli -p "$REDIS_PORT" info server | awk -F: '/^process_id/ {print $2+0}')
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }  # utime + stime
TICK=$(getconf CLK_TCK)
bench() {  # label port args...
  local label=$1 port=$2; shift 2
  local pid=$([ "$port" = "$RANKD_PORT" ] && echo "$RANKD_PID" || echo "$REDIS_PID")
  local t0; t0=$(cpu_ticks "$pid")
  local row; row=$(redis-benchmark -p "$port" -n "$N" -c "$C" -P "$P" -r "$MEMBERS" --csv "$@" | tail -1)
  local ticks=$(( $(cpu_ticks "$pid") - t0 ))
  echo "$row" | awk -F, -v n="$label" -v t="$ticks" -v hz="$TICK" -v req="$N" \
    '{gsub(/"/,""); printf "| %-52s | %10s | %6s | %6s | %5.1f |\n", n, $2, $5, $7, t * 1e6 / hz / req}'
}
echo "| command ($MEMBERS members, $C clients, pipeline $P, $N requests) | req/s | p50 ms | p99 ms | server CPU us/req |"
echo "|---|---:|---:|---:|---:|"
bench "rankd LB.RANK board m:<rand> MODE COMPETITION" "$RANKD_PORT" lb.rank board m:__rand_int__ mode competition
bench "redis EVALSHA seed tied-rank script" "$REDIS_PORT" evalsha "$rank_sha" 2 board m:__rand_int__
bench "rankd EVALSHA seed tied-rank script (packed key)" "$RANKD_PORT" evalsha "$rank_sha" 2 packed m:__rand_int__
bench "rankd LB.TOP board 10 MODE COMPETITION" "$RANKD_PORT" lb.top board 10 mode competition
bench "redis EVALSHA seed page script 0 9" "$REDIS_PORT" evalsha "$page_sha" 1 board 0 9
bench "rankd EVALSHA seed page script 0 9 (packed key)" "$RANKD_PORT" evalsha "$page_sha" 1 packed 0 9
