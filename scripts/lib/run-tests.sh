#!/usr/bin/env bash
# The test tiers, phase by phase, each phase timed (README, "Development").
#   run-tests.sh check   the fast tier: lint, the build, the unit tests, the archive tests on
#                        SQLite only and the station's routes through Station.handle (no
#                        PostgreSQL, no browser, no end-to-end scripts), the app's type-check
#   run-tests.sh full    everything: both engines, the browser, every scripts/test-*.sh
# Stops at the first phase that fails and still prints how long each phase took.
set -uo pipefail
cd "$(dirname "$0")/../.."
tier=${1:-full}
swift=${SWIFT:-swift}

# Suites left to `make test`: they start PostgreSQL clusters, several stations, Chromium,
# real readers, or sweep thousands of inputs.
check_skip='BrowserSessionTests|MultiStationTests|ServeCommandTests|FailoverTests|StationOperationsTests|WebhookQueueTests|WitnessTests|StationSecurityTests|PyHanko|StationCommandsTests\.'

names=()
seconds=()
summary() {
  echo
  echo "== time per phase ($tier)"
  local i total=0
  for i in "${!names[@]}"; do
    printf '   %5d s  %s\n' "${seconds[$i]}" "${names[$i]}"
    total=$((total + seconds[i]))
  done
  printf '   %5d s  all\n' "$total"
}
phase() {
  local name=$1
  shift
  echo "== $name"
  local start=$SECONDS
  "$@"
  local status=$?
  names+=("$name")
  seconds+=($((SECONDS - start)))
  if [ $status -ne 0 ]; then
    summary
    echo "== $name failed (exit $status)" >&2
    exit $status
  fi
}

lint() { "$swift" format lint --strict --recursive --configuration .swift-format Sources Tests Apps Package.swift; }
# SwiftPM leaves TemporaryDirectory.* folders (holding a .keep-directory marker) and lock files
# in TMPDIR on every run:
# the build keeps them in .build; the test run's are removed after it (below).
build() { mkdir -p .build/swiftpm-tmp && TMPDIR="$PWD/.build/swiftpm-tmp" "$swift" build --build-tests; }

# Runs a test command and then holds it to "tests leave nothing behind in the temporary
# folder": what appeared there during the run is SwiftPM's own litter (removed) or a test's
# leftover (named, and the phase fails).
tmp=${TMPDIR:-/tmp}
tidy_tests() {
  local before after entry leftovers=()
  before=$(ls -A "$tmp" | sort)
  "$@"
  local status=$?
  after=$(ls -A "$tmp" | sort)
  while IFS= read -r entry; do
    [ -n "$entry" ] || continue
    case "$entry" in
      TemporaryDirectory.*)
        # The Swift driver's: a folder holding only its .keep-directory marker and the
        # supplementary outputs of a compile job (swiftc runs in the iOS type-check).
        if [ -d "$tmp/$entry" ] && [ -z "$(ls -A "$tmp/$entry" | grep -vx '.keep-directory' | grep -v '^supplementaryOutputs-[0-9]*$')" ]; then
          rm -rf "${tmp:?}/$entry"
        else
          leftovers+=("$entry")
        fi
        ;;
      *.build.lock | *swiftpm.lock | *workspace-state.json.lock | *manifest.db.lock) rm -f "$tmp/$entry" ;;
      *) leftovers+=("$entry") ;;
    esac
  done < <(comm -13 <(echo "$before") <(echo "$after"))
  if [ ${#leftovers[@]} -gt 0 ]; then
    echo "tests left these behind in $tmp: ${leftovers[*]}" >&2
    [ $status -ne 0 ] || status=1
  fi
  return $status
}

case "$tier" in
  check)
    phase lint lint
    phase build build
    phase "swift tests (SQLite only, fast suites)" tidy_tests env COLDTAP_TEST_ENGINES=sqlite "$swift" test --skip-build --skip "$check_skip"
    for t in scripts/test-ios-app-typecheck.sh; do
      [ -e "$t" ] && phase "$t" bash "$t"
    done
    ;;
  full)
    phase lint lint
    phase build build
    phase "swift tests (SQLite and PostgreSQL)" tidy_tests "$swift" test --skip-build
    for t in scripts/test-*.sh; do
      [ -e "$t" ] || continue
      phase "$t" tidy_tests bash "$t"
    done
    phase "every bench once, tiny (--smoke)" env COLDTAP_PYTHON="$PWD/.venv/bin/python" bash scripts/lib/run-benches.sh .build/debug/coldtap-bench --smoke
    ;;
  *)
    echo "usage: run-tests.sh check|full" >&2
    exit 64
    ;;
esac
summary
