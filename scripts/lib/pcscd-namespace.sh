# Shared by the end-to-end scripts (sourced, never run alone): a private pcscd with
# vsmartcard's vpcd in its own network and mount namespaces, `coldtap emulate` as the card,
# pass/fail counting, and a trap that stops both and removes the work folder whatever the
# outcome. The sourcing script sets ROOT, BIN, STEP_TIMEOUT and WORK first.
#
# vpcd's port (bound to 0.0.0.0) is reachable from nowhere else, and pcscd's /run/pcscd is a
# tmpfs of its own, so this never collides with a pcscd someone runs by hand. Clients reach it
# through PCSCLITE_CSOCK_NAME (/proc/PID/root/run/pcscd/pcscd.comm); cards enter its network
# with nsenter.

PCSCD_PID=""
CARD_PID=""
passed=0
failed=0
# `coldtap read` keeps every read in an archive: this run's, inside WORK.
export COLDTAP_ARCHIVE="$WORK/archive.sqlite"

pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ $# -gt 1 ] && sed 's/^/     /' "$2" | head -20; }

# A missing prerequisite fails the run and says what is missing: these tests never skip.
missing() { echo "FAIL: $1"; echo "0 passed, 1 failed"; exit 1; }

check_prerequisites() {
    [ -x "$BIN" ] || missing "build first: $BIN is missing"
    [ "$(id -u)" = 0 ] || missing "needs root for private network and mount namespaces"
    for tool in unshare nsenter ip timeout python3; do
        command -v "$tool" >/dev/null || missing "$tool is not installed"
    done
    [ -x /usr/sbin/pcscd ] || missing "pcscd is not installed (Debian package pcscd; make test installs it)"
    [ -e /usr/lib/pcsc/drivers/serial/libifdvpcd.so ] || missing "vpcd is not installed (Debian package vsmartcard-vpcd; make test installs it)"
    unshare --net --mount -- true 2>/dev/null || missing "this machine does not allow new network and mount namespaces"
}

start_pcscd() {
    unshare --net --mount -- sh -c \
        'mount -t tmpfs -o mode=0755 tmpfs /run && ip link set lo up && exec /usr/sbin/pcscd --foreground' \
        >"$WORK/pcscd.log" 2>&1 &
    PCSCD_PID=$!
    export PCSCLITE_CSOCK_NAME="/proc/$PCSCD_PID/root/run/pcscd/pcscd.comm"
    # Ready when its socket exists and vpcd listens on 35963 (0x8C7B) in its namespace; never
    # probe that port by connecting: vpcd takes any connection for a card.
    for _ in $(seq 50); do
        if [ -S "$PCSCLITE_CSOCK_NAME" ] && awk '$2 ~ /:8C7B$/ && $4 == "0A" { found = 1 } END { exit !found }' \
                "/proc/$PCSCD_PID/net/tcp" "/proc/$PCSCD_PID/net/tcp6" 2>/dev/null; then
            return 0
        fi
        kill -0 "$PCSCD_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "pcscd did not start:"; cat "$WORK/pcscd.log"
    return 1
}

stop_pcscd() {
    if [ -n "$PCSCD_PID" ] && kill -0 "$PCSCD_PID" 2>/dev/null; then
        kill -TERM "$PCSCD_PID" 2>/dev/null
        for _ in $(seq 30); do kill -0 "$PCSCD_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$PCSCD_PID" 2>/dev/null
    fi
}

# start_card ARGS...: `coldtap emulate ARGS` inside pcscd's network namespace, for at most
# CARD_TIMEOUT seconds (STEP_TIMEOUT unless set).
start_card() {
    nsenter --net="/proc/$PCSCD_PID/ns/net" timeout "${CARD_TIMEOUT:-$STEP_TIMEOUT}" "$BIN" emulate "$@" \
        >"$WORK/card.out" 2>"$WORK/card.err" &
    CARD_PID=$!
}

stop_card() {
    if [ -n "$CARD_PID" ]; then
        kill -TERM "$CARD_PID" 2>/dev/null
        wait "$CARD_PID" 2>/dev/null
        CARD_PID=""
        # vpcd notices a closed card within ~0.2 s.
        sleep 0.4
    fi
}

run() { timeout "$STEP_TIMEOUT" "$BIN" "$@"; }

# pcscd's /run/pcscd lived on a tmpfs in its own mount namespace: nothing stale is left in
# the host's /run/pcscd. The work folder goes too.
cleanup() {
    stop_card
    stop_pcscd
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
