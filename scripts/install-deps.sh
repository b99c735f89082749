#!/usr/bin/env bash
# Installs, with apt-get, every Debian package tilerace needs to build, test and run.
# Idempotent: packages already present are skipped, so a warm machine pays a second or two.
# Usage: scripts/install-deps.sh [--browser | --profile | --fuzz]
#   --browser adds chromium, and node and npm if missing; --profile adds perf;
#   --fuzz adds clang and its libFuzzer/sanitizer runtimes.
set -euo pipefail

packages=(
  g++ cmake ninja-build ccache pkg-config make git
  libboost1.81-dev libboost-program-options1.81-dev
  nlohmann-json3-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libsqlite3-dev libsqlitecpp-dev sqlite3 libhiredis-dev redis-server libssl-dev openssl
  libpq-dev postgresql-15 postgresql-common libsodium-dev libicu-dev
  python3 python3-websockets curl jq
)
[ "${1:-}" = "--profile" ] && packages+=(linux-perf)
[ "${1:-}" = "--fuzz" ] && packages+=(clang libclang-rt-14-dev)
if [ "${1:-}" = "--browser" ]; then
  # The emoji font draws the web client's emotes, the CJK font its Chinese (headless
  # Chromium has neither otherwise).
  packages+=(chromium fonts-noto-color-emoji fonts-noto-cjk)
  # A node that is already there (say, a NodeSource build with its own npm) is kept: Debian's
  # npm package conflicts with it.
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
