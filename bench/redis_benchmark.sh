#!/usr/bin/env bash
# rankd vs redis-server 7.0 with redis-benchmark: PING_INLINE, PING_MBULK, SET, GET at
# pipeline 1 and 16, 50 clients, both servers with --save '' --appendonly no, servers
# alternating, 3 rounds; prints median requests/s and the ratio rankd/redis as a markdown
# table, then the RSS growth per element for a 1M-member sorted set (16-byte members) on
# each server. About 2 minutes on an idle 2-core machine.
#
#   bench/redis_benchmark.sh                      # uses build/rankd
#   RANKD_BIN=/path/to/rankd BENCH_ROUNDS=5 bench/redis_benchmark.sh
# Knobs: BENCH_N1 (requests per test at pipeline 1, default 150000), BENCH_N16 (1500000),
# BENCH_CLIENTS (50), BENCH_ROUNDS (3), RANKD_ARGS, BENCH_SKIP_MEMORY=1.
set -euo pipefail
cd "$(dirname "$0")/.."
exec /usr/bin/python3 bench/sidebyside.py basic
