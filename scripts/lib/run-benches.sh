#!/usr/bin/env bash
# Runs every coldtap-bench suite in turn: `run-benches.sh BENCH [--smoke]`. `make bench` runs
# them at full size on the release build; `make test` runs them with --smoke on the debug
# build, so a suite that no longer runs fails CI (Sources/coldtap-bench/BenchScale.swift).
# `station` includes the pages (`station-pages` is the same part alone).
set -euo pipefail
bench=$1
shift
suites=(
  "ndef" "rf" "chart" "archive" "tlog" "station" "station --hanging-webhooks" "fleet"
)
for suite in "${suites[@]}"; do
  echo "== coldtap-bench $suite $*"
  # shellcheck disable=SC2086  # a suite may carry its own option
  "$bench" $suite "$@"
done
