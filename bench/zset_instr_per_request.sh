#!/bin/bash
# bench/zset_instr_per_request.sh BIN N CMD...: user-space instructions per request of BIN
# (callgrind) for N requests of redis-benchmark -c 50 -P 16 -r 1000000 CMD... against a
# 1M-member key `lb` and a 100-member key `small` (bench/zset_loader.py, restored from a
# dump.rdb that BIN itself wrote, so valgrind does not run the load). Prints the total and
# the total less the server cron (jemalloc statistics refreshed per second, which valgrind
# stretches: per time, not per request). E.g.
#   bench/zset_instr_per_request.sh build/rankd 40000 ZSCORE lb m:00__rand_int__
BIN=$(realpath "$1"); N=$2; shift 2
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
valgrind --tool=callgrind --callgrind-out-file=$D/cg.%p --instr-atstart=no \
  "$BIN" --port $PORT --bind 127.0.0.1 --dir $D --save '' --appendonly no >$D/log 2>&1 &
VP=$!
for i in $(seq 600); do [ "$(redis-cli -p $PORT zcard lb 2>/dev/null)" = 1000000 ] && break; sleep 0.5; done
redis-benchmark -p $PORT -c 50 -n 2000 -P 16 -r 1000000 -q "$@" >/dev/null 2>&1  # warm-up
callgrind_control -i on $VP >/dev/null 2>&1
redis-benchmark -p $PORT -c 50 -n $N -P 16 -r 1000000 -q "$@" >/dev/null 2>&1
callgrind_control -i off $VP >/dev/null 2>&1
kill $VP; wait $VP 2>/dev/null
F=$(ls $D/cg.* | head -1)
IR=$(grep -h "^summary:\|^totals:" $F | awk '{print $2}' | sort -n | tail -1)
CRON=$(callgrind_annotate --inclusive=yes $F 2>/dev/null | grep "rankd::Server::Cron()" | head -1 |
       awk '{gsub(",", "", $1); print $1}')
echo "$(basename "$BIN") $* Ir/req $((IR / N)) less cron $(((IR - ${CRON:-0}) / N))"
rm -rf $D
