#!/usr/bin/env bash
# Installs the Debian packages rankd needs to build, test and benchmark, only
# those that are missing. Run as root (make run / make test call it).
set -euo pipefail
pkgs=(g++ cmake make pkg-config googletest libgtest-dev libbenchmark-dev libabsl-dev tzdata
      libjemalloc-dev libssl-dev openssl liblua5.1-0-dev lua-cjson lua-bitop
      redis-server redis-sentinel redis-tools python3 python3-redis python3-pytest python3-pytest-xdist)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ioredis for the cluster client test (tests/js). Optional: without node/npm or the
# npm registry the test skips, so a failure here never stops make run / make test.
js_dir="$(dirname "$0")/../tests/js"
if command -v npm >/dev/null 2>&1 && [ ! -d "$js_dir/node_modules/ioredis" ]; then
  echo "setup: npm install (ioredis) in tests/js"
  (cd "$js_dir" && timeout 300 npm install --no-audit --no-fund --silent >/dev/null 2>&1) ||
    echo "setup: npm install failed; the ioredis cluster test will be skipped"
fi
