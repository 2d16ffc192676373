#!/usr/bin/env bash
# End-to-end tests of coldtap against the real PC/SC stack: pcscd with vsmartcard's vpcd
# driver, and `coldtap emulate` as the card behind the virtual reader, in private namespaces
# (scripts/lib/pcscd-namespace.sh). Every step runs under `timeout`; a trap stops pcscd and
# the cards whatever the outcome.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN="$ROOT/.build/debug/coldtap"
STEP_TIMEOUT=${STEP_TIMEOUT:-30}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/coldtap-e2e.XXXXXX")
. "$ROOT/scripts/lib/pcscd-namespace.sh"
check_prerequisites

json_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

# same_log READ.json DECODE.json: equal except readTimeSource, which says where the read time
# came from ("time of the tag read" against "given with --read-time").
same_log() {
    python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(path)) for path in sys.argv[1:3])
for log in (a, b):
    log.pop("readTimeSource", None)
sys.exit(0 if a == b else 1)
PY
}

# dump_contains DUMP TEXT: the memory in a Flipper .nfc dump (Page/Block lines, or Data
# Content for ISO 15693) holds TEXT (UTF-8).
dump_contains() {
    python3 - "$1" "$2" <<'PY'
import re, sys
memory = bytearray()
for line in open(sys.argv[1], encoding="utf-8"):
    match = re.match(r"\s*(Page \d+|Block \d+|Data Content):\s*(.*)", line)
    if match:
        memory += bytes(int(h, 16) for h in re.findall(r"[0-9A-Fa-f]{2}", match.group(2)))
sys.exit(0 if sys.argv[2].encode() in memory else 1)
PY
}

start_pcscd || { echo "0 passed, 1 failed"; exit 1; }

# 1. Readers are listed; no tag yet.
if run readers >"$WORK/readers.out" 2>&1 && grep -q "Virtual PCD 00 00: no tag" "$WORK/readers.out"; then
    pass "readers lists vpcd's readers"
else
    fail "readers lists vpcd's readers" "$WORK/readers.out"
fi

# 2. No tag within the timeout: exit 69.
run read --reader "Virtual PCD 00 00" --timeout 1 >"$WORK/notag.out" 2>"$WORK/notag.err"
status=$?
if [ $status = 69 ] && grep -q "no tag" "$WORK/notag.err"; then
    pass "no tag within the timeout exits 69"
else
    fail "no tag within the timeout exits 69 (got $status)" "$WORK/notag.err"
fi

# 3. A logger of each format on a Type 2 and a Type 5 tag: `read --json` equals `decode --json`
#    of the dump it saved, with the same read time.
for chip in ntag216 st25dv64k; do
    loggers="cupltag generic16 generic16-unix dtn1"
    # SmarTags write an ST25DV64K's memory themselves (docs/smartag.md).
    [ "$chip" = st25dv64k ] && loggers="$loggers smartag1 smartag2"
    for logger in $loggers; do
        name="read $logger on $chip equals decode of its dump"
        start_card --logger "$logger" --chip "$chip"
        dump="$WORK/$logger-$chip.bin"
        if run read --reader "Virtual PCD 00 00" --timeout 10 --json --save-dump "$dump" \
                >"$WORK/read.json" 2>"$WORK/read.err"; then
            read_time=$(json_field "$WORK/read.json" readTime)
            if run decode "$dump" --read-time "$read_time" --json >"$WORK/decode.json" 2>"$WORK/decode.err" \
                    && same_log "$WORK/read.json" "$WORK/decode.json"; then
                pass "$name"
            else
                diff "$WORK/read.json" "$WORK/decode.json" >"$WORK/diff.txt" 2>&1
                cat "$WORK/decode.err" >>"$WORK/diff.txt"
                fail "$name" "$WORK/diff.txt"
            fi
        else
            cat "$WORK/card.err" >>"$WORK/read.err"
            fail "$name" "$WORK/read.err"
        fi
        stop_card
    done
done

# 3b. `coldtap demo --logger smartag2` through pcscd and vpcd: run inside pcscd's network
#     namespace, the demo finds vpcd listening and pcscd's reader free, serves its virtual
#     SmarTag2 to vpcd and reads it through PC/SC.
name="demo --logger smartag2 reads through pcscd and vpcd"
if nsenter --net="/proc/$PCSCD_PID/ns/net" timeout "$STEP_TIMEOUT" "$BIN" demo --logger smartag2 --out "$WORK/demo-smartag2" \
        >"$WORK/demo.out" 2>"$WORK/demo.err" \
        && grep -q "holding a smartag2 log of 144 samples through pcscd and vpcd" "$WORK/demo.out" \
        && grep -q "^Verdict" "$WORK/demo.out" && [ -s "$WORK/demo-smartag2/report.pdf" ]; then
    pass "$name"
else
    cat "$WORK/demo.err" >>"$WORK/demo.out"
    fail "$name" "$WORK/demo.out"
fi
# The demo's card has closed; vpcd notices within ~0.2 s (as after stop_card).
sleep 0.4

# 4. Write, verified by reading back; a new read then finds the new message in tag memory.
write_case() { # NAME CHIP TEXT-TO-FIND WRITE-ARGS...
    local name=$1 chip=$2 needle=$3; shift 3
    start_card --logger dtn1 --chip "$chip"
    if run write --reader "Virtual PCD 00 00" --timeout 10 "$@" >"$WORK/write.out" 2>&1; then
        # Not a logger any more, so read exits 65 after saving the dump.
        run read --reader "Virtual PCD 00 00" --timeout 10 --save-dump "$WORK/written.nfc" >/dev/null 2>&1
        if [ -f "$WORK/written.nfc" ] && dump_contains "$WORK/written.nfc" "$needle"; then
            pass "$name"
        else
            echo "the new message is not in the dump read afterwards" >>"$WORK/write.out"
            fail "$name" "$WORK/write.out"
        fi
    else
        fail "$name" "$WORK/write.out"
    fi
    stop_card
    rm -f "$WORK/written.nfc"
}
write_case "write then read back (Type 2, NTAG216)" ntag216 "ColdTap e2e write" --text "ColdTap e2e write"
# A message that runs from sector 0 into sector 1 of an NT3H2211 (SECTOR_SELECT through the
# reader's transparent exchange); its last words lie in sector 1.
long_text="$(printf 'cold chain %.0s' $(seq 120))ends in sector one"
write_case "write across the sector boundary then read back (NT3H2211)" nt3h2211 "ends in sector one" --text "$long_text"
# A URI record stores "https://" as the prefix code 4.
write_case "write then read back (Type 5, ST25DV64K)" st25dv64k "example.com/coldtap-e2e" --uri "https://example.com/coldtap-e2e"

# 5. The tag leaves mid-read: exit 74, says how far it got, nothing partial is written.
for fault in removed-after=6 silent-at=6; do
    start_card --logger dtn1 --chip st25dv64k --fault "$fault"
    run read --reader "Virtual PCD 00 00" --timeout 10 --json --save-dump "$WORK/partial.bin" --out "$WORK/partial" \
        >"$WORK/partial.out" 2>"$WORK/partial.err"
    status=$?
    if [ $status = 74 ] && [ ! -s "$WORK/partial.out" ] && [ ! -e "$WORK/partial.bin" ] && [ ! -e "$WORK/partial" ] \
            && grep -q "byte" "$WORK/partial.err"; then
        pass "tag lost mid-read ($fault) exits 74 with nothing partial"
    else
        echo "exit $status" >>"$WORK/partial.err"
        fail "tag lost mid-read ($fault) exits 74 with nothing partial" "$WORK/partial.err"
    fi
    stop_card
done

# 6. --watch reads tag after tag, one result each, until stopped.
count_results() { grep -c '"readTime"' "$1" 2>/dev/null || true; }
wait_results() { # FILE N: wait up to 15 s for N results
    for _ in $(seq 150); do [ "$(count_results "$1")" -ge "$2" ] && return 0; sleep 0.1; done
    return 1
}
timeout "$STEP_TIMEOUT" "$BIN" read --reader "Virtual PCD 00 00" --watch --json >"$WORK/watch.out" 2>"$WORK/watch.err" &
WATCH_PID=$!
start_card --logger generic16 --chip ntag216
wait_results "$WORK/watch.out" 1
stop_card
start_card --logger dtn1 --chip st25dv64k
wait_results "$WORK/watch.out" 2
stop_card
kill -TERM "$WATCH_PID" 2>/dev/null
wait "$WATCH_PID" 2>/dev/null
if [ "$(count_results "$WORK/watch.out")" = 2 ] && grep -q '"format": "generic16"' "$WORK/watch.out" \
        && grep -q '"format": "dtn1"' "$WORK/watch.out"; then
    pass "read --watch gives one result per tag"
else
    cat "$WORK/watch.err" >>"$WORK/watch.out"
    fail "read --watch gives one result per tag" "$WORK/watch.out"
fi

# 7. A tag present shows in `readers` with its chip and UID.
start_card --logger generic16 --chip st25dv64k
for _ in $(seq 30); do
    run readers >"$WORK/readers2.out" 2>&1
    grep -q "tag present" "$WORK/readers2.out" && break
    sleep 0.1
done
if grep -q "Virtual PCD 00 00: tag present — ST LRI / ST25 (ISO 15693), UID E002" "$WORK/readers2.out"; then
    pass "readers shows the tag's chip family and UID"
else
    fail "readers shows the tag's chip family and UID" "$WORK/readers2.out"
fi
stop_card

# 8. pcscd stopped: exit 69 and says how to start it.
kill -TERM "$PCSCD_PID"
for _ in $(seq 30); do kill -0 "$PCSCD_PID" 2>/dev/null || break; sleep 0.1; done
run read --timeout 2 >"$WORK/stopped.out" 2>"$WORK/stopped.err"
status=$?
if [ $status = 69 ] && grep -q "pcscd is not running" "$WORK/stopped.err"; then
    pass "pcscd stopped exits 69"
else
    echo "exit $status" >>"$WORK/stopped.err"
    fail "pcscd stopped exits 69" "$WORK/stopped.err"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
