#!/usr/bin/env bash
# The 4×4 bitboard beside nneonneo/2048-ai's in one run (issue "Race the computer"): a slide
# (their execute_move) and a whole step. Needs a local copy of their repository, which is
# never committed: $NNEONNEO_DIR, else $BUILD/nneonneo-2048-ai. Without one it says how to
# get it and skips (benchmarks reach no network).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
dir=${NNEONNEO_DIR:-$BUILD/nneonneo-2048-ai}
if [ ! -f "$dir/2048.cpp" ]; then
  echo "vs_nneonneo: skipped — no copy of nneonneo/2048-ai at $dir"
  echo "  (git clone https://github.com/nneonneo/2048-ai $dir, or set NNEONNEO_DIR)"
  exit 0
fi
cmake -S . -B "$BUILD" -DTILERACE_NNEONNEO_DIR="$(realpath "$dir")" >/dev/null
cmake --build "$BUILD" --target vs_nneonneo >/dev/null
# One core for both, as the issue measured them.
taskset -c 1 "$BUILD/vs_nneonneo" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
