#!/usr/bin/env bash
# The leaderboard workload (issue 4), rankd vs redis-server 7.0 alternately: preload one
# key with 1,000,000 members of 16 bytes (bench/zset_loader.py, pipelined), print the RSS
# growth per element, then redis-benchmark with 50 clients at pipeline 1 and 16:
#   ZADD lb __rand_int__ n:00__rand_int__         (new members)
#   ZINCRBY lb 1 m:00__rand_int__
#   ZREVRANK lb m:00__rand_int__
#   ZSCORE lb m:00__rand_int__
#   ZREVRANGE lb 0 9 WITHSCORES
#   ZRANGEBYSCORE lb -inf +inf LIMIT 100000 10    (the deep page)
# 3 rounds, median requests/s and ratios as a markdown table.
# Knobs: RANKD_BIN, BENCH_ROUNDS (3), BENCH_CLIENTS (50), BENCH_SCALE (1.0: request counts).
set -euo pipefail
cd "$(dirname "$0")/.."
exec /usr/bin/python3 bench/sidebyside.py leaderboard
