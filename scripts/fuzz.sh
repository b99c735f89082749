#!/usr/bin/env bash
# Runs each libFuzzer harness for FUZZ_SECONDS (default 300) on its growing corpus in
# $BUILD/corpus, seeded from fuzz/seeds (which make test replays), and prints the executions
# and coverage each one reached. FUZZERS picks some ("ws_frames http"); default: all of them.
# A crash, leak or sanitizer report stops the run with its reproducer in $BUILD/artifacts.
# Usage: scripts/fuzz.sh BUILD_DIR   (make fuzz builds BUILD_DIR with clang first)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:?build folder}
SECONDS_EACH=${FUZZ_SECONDS:-300}
FUZZERS=${FUZZERS:-decode dispatcher replay ws_frames tls_channel http}
mkdir -p "$BUILD/artifacts"

# Each harness's dictionary and the longest input worth its time.
options() {
  case "$1" in
    decode|dispatcher|replay) echo "-dict=fuzz/protocol.dict -max_len=4096" ;;
    ws_frames) echo "-max_len=8192" ;;
    tls_channel) echo "-max_len=8192" ;;
    http) echo "-dict=fuzz/http.dict -max_len=16384" ;;
  esac
}

total=0
for fuzzer in $FUZZERS; do
  seeds="fuzz/seeds/$fuzzer"
  mkdir -p "$BUILD/corpus/$fuzzer"
  log="$BUILD/fuzz-$fuzzer.log"
  echo "fuzz: $fuzzer for ${SECONDS_EACH} s"
  # shellcheck disable=SC2046
  if ! "$BUILD/${fuzzer}_fuzz" -max_total_time="$SECONDS_EACH" -timeout=10 \
      -rss_limit_mb=4096 $(options "$fuzzer") -print_final_stats=1 \
      -artifact_prefix="$BUILD/artifacts/$fuzzer-" "$BUILD/corpus/$fuzzer" "$seeds" > "$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz: $fuzzer FAILED (reproducer in $BUILD/artifacts/)"
    exit 1
  fi
  runs=$(grep -oP 'stat::number_of_executed_units: \K[0-9]+' "$log")
  cov=$(grep -oP '#[0-9]+\s+DONE\s+cov: \K[0-9]+' "$log" || echo "?")
  ft=$(grep -oP '#[0-9]+\s+DONE\s+cov: [0-9]+ ft: \K[0-9]+' "$log" || echo "?")
  corpus=$(find "$BUILD/corpus/$fuzzer" -type f | wc -l)
  echo "fuzz: $fuzzer ok: $runs executions, coverage $cov edges ($ft features), corpus $corpus inputs"
  total=$((total + runs))
done
echo "fuzz: all harnesses clean, $total executions in total"
