#!/usr/bin/env bash
# The station against its OpenAPI contract (Sources/Station/openapi.json, README "Station API"):
# a live `coldtap serve` on 127.0.0.1 over a fresh archive with two sites, real reads and tokens
# of each scope; openapi-spec-validator on the document and on the one the station serves;
# then Schemathesis (`st run`) on every operation: no 5xx, statuses, content types, headers and
# bodies as documented, invalid data refused, and no refused call changing the archive
# (scripts/lib/schemathesis_archive_guard.py). Needs `swift build` and `make test-venv`.
#   OPENAPI_EXAMPLES=N  examples per operation in the main run (default 600)
#   OPENAPI_COSTLY_EXAMPLES=N  examples per operation for rendered reports and device tokens (default 60)
#   OPENAPI_SEED=N      Schemathesis's seed (default fixed, so that a failure is reproduced)
#   OPENAPI_KEEP=DIR    copy the temporary folder (archive, server log, Schemathesis output) there
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
coldtap=$root/.build/debug/coldtap
venv=$root/.venv
examples=${OPENAPI_EXAMPLES:-600}
seed=${OPENAPI_SEED:-2027}
# The demo reads are uploaded as read at this time: their excursion starts at the time the
# document's acknowledgement example names, so that the example is acknowledged for real.
read_time=2024-04-09T08:35:00Z

[ -x "$coldtap" ] || { echo "test-openapi: $coldtap is missing; run 'swift build' first." >&2; exit 1; }
[ -x "$venv/bin/st" ] && [ -x "$venv/bin/openapi-spec-validator" ] || {
  echo "test-openapi: Schemathesis or openapi-spec-validator is missing from $venv; run 'make test-venv'." >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/coldtap-openapi.XXXXXX")
server=""
stop_server() {
  if [ -n "$server" ]; then
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  fi
}
cleanup() {
  stop_server
  if [ -n "${OPENAPI_KEEP:-}" ]; then cp -r "$work" "$OPENAPI_KEEP"; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

archive=$work/archive.sqlite
# Every request and run is bounded: a station that stops answering fails the test, never hangs it.
curl() { command curl --max-time 30 "$@"; }
fail() { echo "test-openapi: $*" >&2; [ -s "$work/serve.err" ] && tail -5 "$work/serve.err" >&2; exit 1; }

# Two sites, each with a token of every scope the command line offers.
declare -A token
for site in north south; do
  "$coldtap" site add "$site" --archive "$archive" >/dev/null 2>&1 || fail "cannot add site $site"
  for scope in read upload admin; do
    token[$site-$scope]=$("$coldtap" token create --site "$site" --scope "$scope" --archive "$archive" 2>/dev/null) \
      || fail "cannot make a $scope token for $site"
  done
done
# The station operator's scope (issue 27); absent from older command lines.
if "$coldtap" token create --help 2>&1 | grep -qw operator; then
  token[operator]=$("$coldtap" token create --scope operator --archive "$archive" 2>/dev/null \
    || "$coldtap" token create --site north --scope operator --archive "$archive" 2>/dev/null) || fail "cannot make an operator token"
fi

# Real reads, made by the built-in emulated loggers (no hardware, no network).
for logger in cupltag dtn1 generic16; do
  "$coldtap" demo --in-process --logger "$logger" --out "$work/demo-$logger" >/dev/null 2>&1 || fail "coldtap demo --logger $logger failed"
done

# Run from the temporary folder, so that no relative name in a request can reach the repository.
(cd "$work" && exec "$coldtap" serve --archive "$archive" --listen 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err") &
server=$!
port=""
for _ in $(seq 1 300); do
  port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\) .*|\1|p' "$work/serve.err" | head -1)
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || fail "coldtap serve stopped at once"
  sleep 0.1
done
[ -n "$port" ] || fail "coldtap serve did not say where it listens"
base=http://127.0.0.1:$port
for _ in $(seq 1 100); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/healthz")" = 200 ] && break
  sleep 0.1
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/healthz")" = 200 ] || fail "/healthz never answered 200"

upload() { # SITE FILE EXPECTED-STATUS [READ-TIME]
  local status
  status=$(curl -s -o "$work/upload.json" -w '%{http_code}' -H "Authorization: Bearer ${token[$1-upload]}" \
    -H "Content-Type: text/plain" ${4:+-H "X-ColdTap-Read-Time: $4"} --data-binary "@$2" "$base/api/v1/reads")
  [ "$status" = "$3" ] || fail "uploading $2 for $1 answered $status, not $3: $(head -c 300 "$work/upload.json")"
}
upload north "$work/demo-cupltag/logger.nfc" 201 "$read_time"
upload north "$work/demo-dtn1/logger.nfc" 201 "$read_time"
# generic16 logs carry their own start (the demo's run), so this one is read now.
upload south "$work/demo-generic16/logger.nfc" 201
loggers=$(curl -s -H "Authorization: Bearer ${token[north-read]}" "$base/api/v1/loggers")
grep -q '"id":"cupltag:CTDEMO01"' <<<"$loggers" || fail "site north does not list cupltag:CTDEMO01: $loggers"

# Lots of north (docs/stability.md), made through the API: L-0301 travels with
# cupltag:CTDEMO01 (the lot the document's examples name), L-0300 is the one its close
# example ends. Site south's run must find neither.
lot_post() { # PATH BODY
  local status
  status=$(curl -s -o "$work/lot.json" -w '%{http_code}' -H "Authorization: Bearer ${token[north-upload]}" \
    -H "Content-Type: application/json" --data "$2" "$base$1")
  [ "$status" = 201 ] || fail "POST $1 answered $status, not 201: $(head -c 300 "$work/lot.json")"
}
lot_post /api/v1/lots '{"lot": "L-0301", "product": "example-2-8", "quantity": 100}'
lot_post /api/v1/lots/L-0301/moves '{"logger": "cupltag:CTDEMO01", "at": "2024-04-08T09:00:00Z", "place": "ward 3"}'
lot_post /api/v1/lots '{"lot": "L-0300", "product": "example-2-8"}'
lot_post /api/v1/lots/L-0300/moves '{"logger": null, "at": "2024-04-08T09:00:00Z", "place": "loading dock"}'

# The document: valid as kept, and served byte for byte.
document=$root/Sources/Station/openapi.json
curl -s -o "$work/served.json" "$base/api/v1/openapi.json"
cmp -s "$document" "$work/served.json" || fail "the station serves another document than Sources/Station/openapi.json (rebuild coldtap)"
"$venv/bin/openapi-spec-validator" "$document" "$work/served.json" | sed 's|^.*/||; s|^|openapi-spec-validator: |'

contract=$document

checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance
checks=$checks,response_schema_conformance,negative_data_rejection,rejected_call_left_archive_unchanged
failed=0
schemathesis() { # NAME TOKEN EXAMPLES [st run options...]
  local name=$1 bearer=$2 count=$3
  shift 3
  local status=0
  # In the temporary folder: Schemathesis and Hypothesis write nothing into the repository.
  (cd "$work" && COLDTAP_GUARD_ARCHIVE=$archive COLDTAP_GUARD_REPORT=$work/guard-$name.txt \
    SCHEMATHESIS_HOOKS=$root/scripts/lib/schemathesis_archive_guard.py \
    timeout 900 "$venv/bin/st" run "$contract" --url "$base" -H "Authorization: Bearer $bearer" \
      --checks "$checks" --phases examples,coverage,fuzzing --max-examples "$count" --workers 1 --seed "$seed" \
      --generation-database none --request-timeout 20 --no-color "$@") >"$work/st-$name.out" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    failed=1
    echo "== Schemathesis, $name: failed (exit $status)"
    sed -n '/^=* FAILURES =*$/,$p' "$work/st-$name.out" | head -400
    [ -s "$work/st-$name.out" ] && ! grep -q '^=* FAILURES =*$' "$work/st-$name.out" && tail -40 "$work/st-$name.out"
  fi
  echo "Schemathesis, $name: $(grep -E '^ *[0-9]+ generated' "$work/st-$name.out" | sed 's/^ *//') |" \
    "$(grep -E '^=+ .* in [0-9.]+s =+$' "$work/st-$name.out" | tail -1 | sed 's/^=* //; s/ =*$//')"
  [ -s "$work/guard-$name.txt" ] && cat "$work/guard-$name.txt"
  return 0
}

# Site north's upload token on every operation. A rendered report (a PNG takes most of a
# second in a debug build) and a device token (a password hashed on purpose, right or wrong)
# cost a hundred times an ordinary call: they get their own run with fewer examples, so that
# the contract run stays a few minutes.
costly='^/api/v1/(loggers/\{id\}/report\.(png|pdf|svg|html)|device-tokens)$'
schemathesis north-upload "${token[north-upload]}" "$examples" --exclude-path-regex "$costly"
schemathesis north-upload-costly "${token[north-upload]}" "${OPENAPI_COSTLY_EXAMPLES:-60}" --include-path-regex "$costly"
# Site south's upload token: north's loggers (the document's examples) must stay out of reach.
schemathesis south-upload "${token[south-upload]}" 15
# The operator's token on /metrics, once the command line can make one.
if [ -n "${token[operator]:-}" ]; then
  schemathesis operator "${token[operator]}" 15 --include-path /metrics
fi

stop_server
# Whatever the run kept, the archive's record still holds together.
"$coldtap" archive verify --archive "$archive" >"$work/verify.out" 2>&1 || { cat "$work/verify.out"; fail "archive verify failed after the run"; }
echo "archive verify: $(grep -m1 'holds:' "$work/verify.out" | sed 's/^The archive [^ ]* holds/the archive holds/')"
[ "$failed" -eq 0 ] || { echo "test-openapi: Schemathesis found failures (above)." >&2; exit 1; }
echo "test-openapi: the station matches its OpenAPI document."
