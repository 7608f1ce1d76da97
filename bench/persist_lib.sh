# Shared by bench/persist_bench.sh and bench/persist_format_bench.sh (sourced,
# not run): starting, waiting for and stopping rankd and redis-server on a
# scratch directory. The caller sets RANKD_BIN, REDIS_BIN and WORK (and
# BENCH_DIR when WORK is to be kept) before sourcing.
# shellcheck shell=bash

PIDS=()

cleanup() {
  for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true; done
  [ -z "${BENCH_DIR:-}" ] && rm -rf "$WORK"
}
trap cleanup EXIT

now_ms() { date +%s%3N; }
secs() { awk -v d="$1" 'BEGIN {printf "%.2f s", d/1000}'; }  # milliseconds as "1.23 s"

wait_pong() {  # port: up to 120 s (a large data set loads first)
  for _ in $(seq 1 12000); do
    if [ "$(redis-cli -p "$1" PING 2>/dev/null)" = "PONG" ]; then return 0; fi
    sleep 0.01
  done
  echo "server on port $1 did not answer" >&2
  return 1
}

start() {  # name(rankd|redis) port dir args...  (sets STARTED_PID)
  local name=$1 port=$2 dir=$3 bin=$RANKD_BIN
  shift 3
  [ "$name" = redis ] && bin=$REDIS_BIN
  mkdir -p "$dir"
  "$bin" --port "$port" --dir "$dir" "$@" >>"$dir/server.log" 2>&1 &
  STARTED_PID=$!
  PIDS+=("$STARTED_PID")
  wait_pong "$port"
}

stop() {  # port pid
  redis-cli -p "$1" SHUTDOWN NOSAVE >/dev/null 2>&1 || true
  wait "$2" 2>/dev/null || true
}
