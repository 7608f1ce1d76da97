#!/usr/bin/env bash
# `make bench`: the side-by-side benchmarks against redis-server. The leaderboard
# workload runs once rankd has sorted sets.
set -euo pipefail
cd "$(dirname "$0")/.."
bash bench/redis_benchmark.sh
bash bench/leaderboard_bench.sh || echo "leaderboard benchmark skipped or failed (see above)"
