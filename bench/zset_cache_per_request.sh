#!/bin/bash
# bench/zset_cache_per_request.sh BIN N CMD...: simulated data-cache misses per request of
# BIN (callgrind --cache-sim=yes) for N requests of redis-benchmark -c 50 -P 16 -r 1000000
# CMD... against a 1M-member key `lb` (bench/zset_loader.py, restored from a dump.rdb BIN
# itself wrote). BIN may be rankd or redis-server. Prints per request: instructions (Ir),
# first-level data misses (D1mr + D1mw: lines not in a 64 KiB L1) and last-level misses
# (DLmr + DLmw) for LL=$LL (default 1 MiB, this machine's L2 per core: a miss there is
# a trip to L3 or DRAM; LL=33554432,16,64 simulates the 32 MiB L3). Whole program less
# the server cron. KEEP=DIR keeps the callgrind output there for callgrind_annotate
# --show=Ir,D1mr,D1mw,DLmr,DLmw. E.g.
#   bench/zset_cache_per_request.sh build/rankd 40000 ZSCORE lb m:00__rand_int__
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); N=$2; shift 2  # not realpath: redis-server is a link
HERE=$(dirname "$(realpath "$0")")
LL=${LL:-1048576,16,64}
PORT=$((20000 + RANDOM % 20000))
D=$(mktemp -d /tmp/zcache.XXXX)
"$BIN" --port $PORT --bind 127.0.0.1 --dir $D --save '' --appendonly no >$D/log 2>&1 &
P=$!
for i in $(seq 100); do redis-cli -p $PORT ping >/dev/null 2>&1 && break; sleep 0.2; done
/usr/bin/python3 -c "import sys; sys.path.insert(0, '$HERE'); import zset_loader as z
z.load_zset('127.0.0.1', $PORT, 'lb', 1000000)"
redis-cli -p $PORT save >/dev/null
kill $P; wait $P 2>/dev/null
valgrind --tool=callgrind --callgrind-out-file=$D/cg.%p --instr-atstart=no \
  --cache-sim=yes --D1=65536,8,64 --I1=65536,8,64 --LL=$LL \
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
# events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
TOT=$(grep -h "^summary:\|^totals:" $F | tail -1)
CRON=$(callgrind_annotate --inclusive=yes --show=Ir,D1mr,D1mw,DLmr,DLmw $F 2>/dev/null |
       grep -E "rankd::Server::Cron\(\)|serverCron" | head -1 | sed 's/([^)]*%)//g; s/,//g')
/usr/bin/python3 - "$N" "$TOT" "$CRON" "$(basename "$BIN") $*" <<'PY'
import sys
n = int(sys.argv[1]); tot = sys.argv[2].split()[1:]
ev = dict(zip("Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw".split(), map(int, tot)))
cron = sys.argv[3].split()
c = dict(zip("Ir D1mr D1mw DLmr DLmw".split(), map(int, cron[:5]))) if cron else {}
def per(k, *ks): return sum(ev[x] - c.get(x, 0) for x in (k,) + ks) / n
print("%s Ir/req %.0f D1miss/req %.2f LLmiss/req %.2f" % (
    sys.argv[4], per("Ir"), per("D1mr", "D1mw"), per("DLmr", "DLmw")))
PY
if [ -n "$KEEP" ]; then mkdir -p "$KEEP" && cp $F "$KEEP/"; fi
rm -rf $D
