#!/usr/bin/env bash
# End-to-end test of an NXP NHS31xx logger through the real PC/SC stack: pcscd with vpcd in
# private network and mount namespaces (as scripts/test-pcsc-e2e.sh), `coldtap emulate
# --logger nhs3100` as the card (a virtual NHS3100 following the wall clock: 2.5 s without
# commands end a tap, the next command finds it rebooted), and configure → start → time
# passes → read → decode of the saved transcript → measure. docs/nhs31xx.md. The private
# pcscd, the card and the cleanup: scripts/lib/pcscd-namespace.sh.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN="$ROOT/.build/debug/coldtap"
STEP_TIMEOUT=${STEP_TIMEOUT:-30}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/coldtap-nhs-e2e.XXXXXX")
READER="Virtual PCD 00 00"
. "$ROOT/scripts/lib/pcscd-namespace.sh"
check_prerequisites
start_pcscd || { echo "0 passed, 1 failed"; exit 1; }
# The virtual NHS3100 follows the wall clock for the whole run.
CARD_TIMEOUT=120 start_card --logger nhs3100

# The virtual tag takes 2.5 s without commands as the end of a tap (vpcd shows no field loss).
next_tap() { sleep 2.8; }

# 1. A pristine logger is configured without --yes (1 s interval, 2–8 °C, waiting for START).
if run configure --reader "$READER" --timeout 10 --interval 1 --valid-min 2 --valid-max 8 --wait-for-start \
        >"$WORK/configure.out" 2>&1 && grep -q "waiting for 'coldtap start'" "$WORK/configure.out"; then
    pass "configure a pristine NHS3100"
else
    fail "configure a pristine NHS3100" "$WORK/configure.out"
fi
next_tap

# 2. Configuring it again needs --yes: exit 64, nothing changed.
run configure --reader "$READER" --timeout 10 --interval 60 >"$WORK/again.out" 2>&1
status=$?
if [ $status = 64 ] && grep -q "add --yes" "$WORK/again.out"; then
    pass "configure asks for --yes unless pristine"
else
    fail "configure asks for --yes unless pristine (got $status)" "$WORK/again.out"
fi
next_tap

# 3. START, then time passes out of the field.
if run start --reader "$READER" --timeout 10 >"$WORK/start.out" 2>&1; then
    pass "start"
else
    fail "start" "$WORK/start.out"
fi
sleep 4

# 4. read --json --save-dump: an NHS31xx log with samples and events; decode of the transcript
#    gives the same log.
if run read --reader "$READER" --timeout 10 --json --save-dump "$WORK/nhs.jsonl" >"$WORK/read.json" 2>"$WORK/read.err"; then
    if python3 - "$WORK/read.json" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
assert log["format"] == "nhs31xx", log["format"]
assert log["timeBase"] == "logger-clock"
assert len(log["samples"]) >= 3, len(log["samples"])
names = [event["name"] for event in log["events"]]
assert names[:4] == ["pristine", "configured", "starting", "logging"], names
PY
    then
        pass "read an NHS3100 in command mode through pcscd"
    else
        fail "read an NHS3100 in command mode through pcscd" "$WORK/read.json"
    fi
    if run decode "$WORK/nhs.jsonl" --json >"$WORK/decode.json" 2>"$WORK/decode.err" \
            && python3 -c 'import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:3]); sys.exit(0 if a==b else 1)' \
                "$WORK/read.json" "$WORK/decode.json"; then
        pass "decode of the saved transcript equals the read"
    else
        diff "$WORK/read.json" "$WORK/decode.json" >"$WORK/diff.txt" 2>&1
        fail "decode of the saved transcript equals the read" "$WORK/diff.txt"
    fi
else
    fail "read an NHS3100 in command mode through pcscd" "$WORK/read.err"
fi
next_tap

# 5. A live measurement, then START is refused once logging.
if run measure --reader "$READER" --timeout 10 >"$WORK/measure.out" 2>&1 && grep -q "Temperature: " "$WORK/measure.out"; then
    pass "measure"
else
    fail "measure" "$WORK/measure.out"
fi
next_tap
run start --reader "$READER" --timeout 10 >"$WORK/refused.out" 2>&1
status=$?
if [ $status = 1 ] && grep -q "refused START" "$WORK/refused.out"; then
    pass "START is refused while logging"
else
    fail "START is refused while logging (got $status)" "$WORK/refused.out"
fi

echo "$passed passed, $failed failed"
[ $failed = 0 ]
