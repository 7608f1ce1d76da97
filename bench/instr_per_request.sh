#!/bin/bash
# bench/instr_per_request.sh BIN TEST [N]: user-space instructions per request of BIN
# (callgrind, instrumented only during redis-benchmark -c 50 -P 16 -t TEST -n N).
BIN=$1; T=$2; N=${3:-100000}; PORT=$((20000 + RANDOM % 20000))
D=$(mktemp -d /tmp/instr.XXXX)
valgrind --tool=callgrind --callgrind-out-file=$D/cg.%p --instr-atstart=no \
  $BIN --port $PORT --bind 127.0.0.1 --dir $D --save '' --appendonly no >$D/log 2>&1 &
VP=$!
for i in $(seq 100); do redis-cli -p $PORT ping >/dev/null 2>&1 && break; sleep 0.3; done
callgrind_control -i on $VP >/dev/null 2>&1
redis-benchmark -p $PORT -c 50 -n $N -P 16 -t $T -q >/dev/null 2>&1
callgrind_control -i off $VP >/dev/null 2>&1
kill $VP; wait $VP 2>/dev/null
IR=$(grep -h "^summary:\|^totals:" $D/cg.* | awk '{print $2}' | sort -n | tail -1)
echo "$(basename $BIN) $T Ir/req $(python3 -c "print(round($IR/$N))")"
rm -rf $D
