#!/bin/bash
# bench/zset_instr_per_request.sh BIN N CMD...: user-space instructions per request of BIN
# (callgrind) for N requests of redis-benchmark -c 50 -P 16 -r 1000000 CMD... against a
# 1M-member key `lb` and a 100-member key `small` (bench/zset_loader.py, restored from a
# dump.rdb that BIN itself wrote, so valgrind does not run the load). BIN may be rankd or
# redis-server. Prints the total and the total less the server cron (jemalloc statistics
# refreshed per second, which valgrind stretches: per time, not per request).
# CACHE=1 also simulates the data caches (--cache-sim=yes) and prints, less the cron,
# first-level data misses per request (D1mr + D1mw: lines not in a 64 KiB L1) and
# last-level ones (DLmr + DLmw) for LL=$LL (default 1 MiB, this machine's L2 per core: a
# miss there is a trip to L3 or DRAM; LL=33554432,16,64 simulates the 32 MiB L3).
# KEEP=DIR keeps the callgrind output there (callgrind_annotate --inclusive=yes). E.g.
#   bench/zset_instr_per_request.sh build/rankd 40000 ZSCORE lb m:00__rand_int__
#   CACHE=1 bench/zset_instr_per_request.sh /usr/bin/redis-server 40000 ZREVRANK lb m:00__rand_int__
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); N=$2; shift 2  # not realpath: redis-server is a link
HERE=$(dirname "$(realpath "$0")")
PORT=$((20000 + RANDOM % 20000))
D=$(mktemp -d /tmp/zinstr.XXXX)
"$BIN" --port $PORT --bind 127.0.0.1 --dir $D --save '' --appendonly no >$D/log 2>&1 &
P=$!
for i in $(seq 100); do redis-cli -p $PORT ping >/dev/null 2>&1 && break; sleep 0.2; done
/usr/bin/python3 -c "import sys; sys.path.insert(0, '$HERE'); import zset_loader as z
z.load_zset('127.0.0.1', $PORT, 'lb', 1000000); z.load_zset('127.0.0.1', $PORT, 'small', 100)"
redis-cli -p $PORT save >/dev/null
kill $P; wait $P 2>/dev/null
SIM=()
if [ -n "$CACHE" ]; then
  SIM=(--cache-sim=yes --D1=65536,8,64 --I1=65536,8,64 --LL=${LL:-1048576,16,64})
fi
valgrind --tool=callgrind --callgrind-out-file=$D/cg.%p --instr-atstart=no "${SIM[@]}" \
  "$BIN" --port $PORT --bind 127.0.0.1 --dir $D --save '' --appendonly no >$D/log 2>&1 &
VP=$!
for i in $(seq 1200); do [ "$(redis-cli -p $PORT zcard lb 2>/dev/null)" = 1000000 ] && break; sleep 0.5; done
if [ "$(redis-cli -p $PORT zcard lb 2>/dev/null)" != 1000000 ]; then
  echo "$BIN did not come up with the 1M key under valgrind; log in $D/log" >&2; kill $VP; exit 1
fi
redis-benchmark -p $PORT -c 50 -n 20000 -P 16 -r 1000000 -q "$@" >/dev/null 2>&1  # warm-up
callgrind_control -i on $VP >/dev/null 2>&1
redis-benchmark -p $PORT -c 50 -n $N -P 16 -r 1000000 -q "$@" >/dev/null 2>&1
callgrind_control -i off $VP >/dev/null 2>&1
kill $VP; wait $VP 2>/dev/null
F=$(ls $D/cg.* | head -1)
# The events callgrind counted (a "events:" line names them), totalled, and the cron's.
EVENTS=$(grep -h "^events:" $F | head -1 | cut -d' ' -f2-)
TOT=$(grep -h "^summary:\|^totals:" $F | tail -1 | cut -d' ' -f2-)
CRON=$(callgrind_annotate --inclusive=yes --show="$(echo $EVENTS | tr ' ' ,)" $F 2>/dev/null |
       grep -E "rankd::Server::Cron\(\)|serverCron" | head -1 | sed 's/([^)]*%)//g; s/,//g')
/usr/bin/python3 - "$N" "$EVENTS" "$TOT" "$CRON" "$(basename "$BIN") $*" <<'PY'
import sys
n, names = int(sys.argv[1]), sys.argv[2].split()
ev = dict(zip(names, map(int, sys.argv[3].split())))
c = dict(zip(names, map(int, sys.argv[4].split()[:len(names)]))) if sys.argv[4].split() else {}
def per(*ks): return sum(ev[k] - c.get(k, 0) for k in ks) / n
line = "%s Ir/req %d less cron %d" % (sys.argv[5], ev["Ir"] // n, per("Ir"))
if "DLmr" in ev:
    line += " D1miss/req %.2f LLmiss/req %.2f" % (per("D1mr", "D1mw"), per("DLmr", "DLmw"))
print(line)
PY
if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && cp $F "$KEEP/"; fi
rm -rf $D
