#!/usr/bin/env bash
# Runs Redis 7.0.15's own test suite against a server binary, one unit at a
# time (a unit's exception then hides only that unit's later tests).
# Usage: scripts/redis_tests.sh BINARY OUTDIR [unit ...]
#   SUITE=/path/to/redis-tests (default ../shared/redis-tests), UNIT_TIMEOUT
#   seconds per unit (default 600), RT_ARGS extra runner arguments.
# With no units: every unit of the suite's all_tests except the stream,
# HyperLogLog and cluster units (their own issues). Tests named in
# scripts/redis_tests_skips.txt are skipped (each would abort its unit) and
# count as failures. Writes one log per unit to OUTDIR and prints per unit:
# <unit> ok=N err=M skipped=K exception=E rc=R secs=S, then the totals
# (docs/compatibility.md says how they are read).
set -u
bin=$(realpath "$1"); out=$2; shift 2
suite=${SUITE:-$(dirname "$0")/../../shared/redis-tests}
suite=$(realpath "$suite" 2>/dev/null)
# A missing suite would make the copy below start at "/".
[ -n "$suite" ] && [ -d "$suite/tests" ] || { echo "no Redis test suite at ${SUITE:-../shared/redis-tests}" >&2; exit 2; }
units=("$@")
if [ ${#units[@]} -eq 0 ]; then
  mapfile -t units < <(sed -n '/^set ::all_tests {/,/^}/p' "$suite/tests/test_helper.tcl" |
    grep -v -E 'all_tests|^}' | tr -d ' ' |
    grep -v -E '^unit/type/stream|^unit/hyperloglog|cluster')
fi
mkdir -p "$out"
W=$(mktemp -d /tmp/redis-tests.XXXXXX)
trap 'rm -rf "$W"' EXIT
cp -r "$suite/." "$W" && chmod -R u+w "$W" && mkdir -p "$W/src"
ln -s "$bin" "$W/src/redis-server"
grep -v -e '^#' -e '^$' "$(dirname "$0")/redis_tests_skips.txt" > "$W/skips.txt"
for b in redis-cli redis-benchmark redis-check-aof redis-check-rdb; do
  ln -s "/usr/bin/$b" "$W/src/$b"
done
# The runner's result tags, with or without colour codes.
tag() { grep -a -c -E "^\[(.\[[0-9;]*m)?$1(.\[0m)?\]:" "$2"; }
total_ok=0; total_err=0; total_skip=0; total_exc=0
for u in "${units[@]}"; do
  log="$out/$(echo "$u" | tr / _).log"
  start=$(date +%s)
  (cd "$W" && timeout "${UNIT_TIMEOUT:-600}" ./runtest --single "$u" --clients 1 --timeout 120 \
     --dont-clean --baseport $((21200 + (RANDOM % 40) * 200)) --portcount 200 --skipfile "$W/skips.txt" ${RT_ARGS:-} \
     > "$log" 2>&1)
  rc=$?
  ok=$(tag ok "$log"); err=$(tag err "$log"); skip=$(tag skip "$log"); exc=$(tag exception "$log")
  total_ok=$((total_ok + ok)); total_err=$((total_err + err)); total_skip=$((total_skip + skip))
  total_exc=$((total_exc + exc))
  echo "$u ok=$ok err=$err skipped=$skip exception=$exc rc=$rc secs=$(( $(date +%s) - start ))"
done
echo "total ok=$total_ok err=$total_err skipped=$total_skip exception=$total_exc units=${#units[@]}"
