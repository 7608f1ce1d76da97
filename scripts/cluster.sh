#!/usr/bin/env bash
# A local Redis Cluster of rankd nodes on this machine, in the manner of Redis's
# utils/create-cluster: N nodes on 127.0.0.1 ports PORT+1..PORT+N (bus ports +10000),
# R replicas per master, each node in its own directory under DIR.
#
#   scripts/cluster.sh start      start the nodes and create the cluster (once)
#   scripts/cluster.sh stop       stop the nodes (data and nodes.conf kept)
#   scripts/cluster.sh restart    stop, then start again (they rejoin from nodes.conf)
#   scripts/cluster.sh status     each node's pid and role; the cluster check
#   scripts/cluster.sh clean      stop and delete DIR
#
# Settings (environment): NODES (6), REPLICAS (1), PORT (30000), DIR (data/cluster),
# NODE_TIMEOUT (ms, 2000), BIN (default build/rankd), REDIS=1 (use
# /usr/bin/redis-server instead), EXTRA_ARGS (more server options for every node).
# `make cluster` / `make cluster-stop` call start / stop.
set -euo pipefail
cd "$(dirname "$0")/.."

NODES=${NODES:-6}
REPLICAS=${REPLICAS:-1}
PORT=${PORT:-30000}
DIR=${DIR:-data/cluster}
NODE_TIMEOUT=${NODE_TIMEOUT:-2000}
EXTRA_ARGS=${EXTRA_ARGS:-}
if [ -n "${REDIS:-}" ] && [ "${REDIS}" != 0 ]; then
  BIN=${BIN:-/usr/bin/redis-server}
else
  BIN=${BIN:-build/rankd}
fi
CLI=${CLI:-redis-cli}

ports() { seq $((PORT + 1)) $((PORT + NODES)); }
node_dir() { echo "$DIR/$1"; }
pid_of() { cat "$(node_dir "$1")/pid" 2>/dev/null || true; }
running() { local pid; pid=$(pid_of "$1"); [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }

wait_port() {   # port: waits until the node answers PING (15 s at most)
  for _ in $(seq 150); do
    "$CLI" -p "$1" ping >/dev/null 2>&1 && return 0
    running "$1" || break
    sleep 0.1
  done
  echo "cluster: node on port $1 did not start; see $(node_dir "$1")/server.log" >&2
  tail -5 "$(node_dir "$1")/server.log" >&2 || true
  return 1
}

start_node() {  # port
  local p=$1 d
  d=$(node_dir "$p")
  mkdir -p "$d"
  if running "$p"; then echo "cluster: $p already running (pid $(pid_of "$p"))"; return; fi
  # shellcheck disable=SC2086
  setsid "$BIN" --port "$p" --bind 127.0.0.1 --dir "$(cd "$d" && pwd)" \
    --cluster-enabled yes --cluster-config-file nodes.conf \
    --cluster-node-timeout "$NODE_TIMEOUT" --appendonly no --save "" \
    $EXTRA_ARGS >>"$d/server.log" 2>&1 </dev/null &
  echo $! >"$d/pid"
}

start() {
  [ -x "$BIN" ] || { echo "cluster: $BIN not found (make build, or REDIS=1)" >&2; exit 1; }
  for p in $(ports); do start_node "$p"; done
  for p in $(ports); do wait_port "$p"; done
  local first=$((PORT + 1)) known
  known=$("$CLI" -p "$first" cluster info | tr -d '\r' | sed -n 's/^cluster_known_nodes://p')
  if [ "${known:-1}" -ge "$NODES" ]; then
    echo "cluster: the nodes already form a cluster (nodes.conf kept); waiting for state ok"
  else
    local addrs=()
    for p in $(ports); do addrs+=("127.0.0.1:$p"); done
    "$CLI" --cluster create "${addrs[@]}" --cluster-replicas "$REPLICAS" --cluster-yes
  fi
  for _ in $(seq 300); do
    [ "$("$CLI" -p "$first" cluster info | tr -d '\r' | sed -n 's/^cluster_state://p')" = ok ] &&
      break
    sleep 0.1
  done
  echo "cluster: $NODES nodes on ports $((PORT + 1))-$((PORT + NODES)) ($BIN)"
  echo "cluster: try   $CLI -c -p $first   or   $CLI --cluster check 127.0.0.1:$first"
}

stop() {
  local pids=()
  for p in $(ports); do
    if running "$p"; then
      pids+=("$(pid_of "$p")")
      kill "$(pid_of "$p")"
    fi
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  done
  for p in $(ports); do rm -f "$(node_dir "$p")/pid"; done
  echo "cluster: stopped ${#pids[@]} node(s)"
}

status() {
  for p in $(ports); do
    if running "$p"; then
      echo "$p pid $(pid_of "$p") $("$CLI" -p "$p" role 2>/dev/null | head -1)"
    else
      echo "$p not running"
    fi
  done
  "$CLI" --cluster check "127.0.0.1:$((PORT + 1))" || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  restart) stop; start ;;
  status) status ;;
  clean) stop; rm -rf "$DIR"; echo "cluster: removed $DIR" ;;
  *) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
