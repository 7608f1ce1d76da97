#!/usr/bin/env bash
# Installs the Debian packages rankd needs to build, test and benchmark, only
# those that are missing. Run as root (make run / make test call it).
set -euo pipefail
pkgs=(g++ cmake make pkg-config googletest libgtest-dev libbenchmark-dev libabsl-dev tzdata
      libjemalloc-dev libssl-dev openssl liblua5.1-0-dev lua-cjson lua-bitop
      redis-server redis-sentinel redis-tools python3 python3-redis python3-pytest)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
