#!/usr/bin/env bash
# Runs the same commands with two coldtap binaries on a generated corpus (each built-in
# logger's demo read, the NDEF fixtures, hex and damaged variants, archive flows) and prints
# every difference in standard output, standard error and exit status. For refactors that
# must keep outputs byte-identical: scripts/compare-outputs.sh OLD_COLDTAP NEW_COLDTAP
set -uo pipefail
old=$(realpath "$1") new=$(realpath "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TZ=UTC
corpus=$work/corpus
mkdir -p "$corpus"
for logger in cupltag generic16 generic16-unix dtn1 smartag1 smartag2 nhs3100; do
    "$old" demo --in-process --logger "$logger" --out "$work/demo-$logger" >/dev/null 2>&1
    for file in "$work/demo-$logger"/logger.*; do
        [ -f "$file" ] && cp "$file" "$corpus/$logger.${file##*.}"
    done
done
cp "$root"/Tests/Fixtures/ndef/*.ndef "$corpus/"
for file in "$corpus"/*.nfc "$corpus"/*.ndef; do
    [ -f "$file" ] || continue
    base=${file##*/}
    xxd -p "$file" >"$corpus/hex-$base.txt"
    head -c $(( $(wc -c <"$file") / 2 )) "$file" >"$corpus/half-$base"
    # One byte flipped in the middle: a damaged read.
    python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[len(b) // 2] ^= 0x5A; open(sys.argv[2], "wb").write(b)' \
        "$file" "$corpus/flipped-$base"
done
: >"$corpus/empty.bin"
printf '\x89PNG\r\n\x1a\n0000' >"$corpus/image.png"
inputs=("$corpus"/* "$work/no-such-file" "$corpus")
compared=0 differences=0
run_both() { # NAME ARGS... (NAME keys the outputs)
    local name=$1; shift
    local status_old status_new
    (cd "$work" && "$old" "$@" >"$work/old.out" 2>"$work/old.err"); status_old=$?
    (cd "$work" && "$new" "$@" >"$work/new.out" 2>"$work/new.err"); status_new=$?
    compared=$((compared + 1))
    # The corpus folder's path is the only thing allowed to differ by nature (none here).
    if ! cmp -s "$work/old.out" "$work/new.out" || ! cmp -s "$work/old.err" "$work/new.err" || [ $status_old != $status_new ]; then
        differences=$((differences + 1))
        echo "=== $name: exit $status_old → $status_new"
        diff "$work/old.out" "$work/new.out" | head -8
        diff "$work/old.err" "$work/new.err" | head -8
    fi
}
time=--read-time=2026-01-01T00:00:00Z
for input in "${inputs[@]}"; do
    name=${input##*/}
    run_both "decode --json $name" decode --json "$time" "$input"
    run_both "decode $name" decode "$time" "$input"
    run_both "decode --csv $name" decode --csv "$time" "$input"
    run_both "report --json $name" report --json "$time" "$input"
    run_both "report $name" report "$time" "$input"
    # The reports' other languages (their texts come from per-language tables).
    for lang in zh-Hans ja; do
        run_both "report --lang $lang $name" report "$time" --lang "$lang" "$input"
        (cd "$work" && rm -rf svg-old svg-new && mkdir svg-old svg-new)
        (cd "$work" && "$old" report "$time" --lang "$lang" --svg --html --out svg-old "$input" >/dev/null 2>&1)
        (cd "$work" && "$new" report "$time" --lang "$lang" --svg --html --out svg-new "$input" >/dev/null 2>&1)
        # The HTML says when it was made: the one line that differs by nature.
        sed -i -E 's#(<tr><th>[^<]*ColdTap[^<]*</th><td class="wrap">)20[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9:]{8}(</td></tr>)#\1T\2#' "$work"/svg-old/*.html "$work"/svg-new/*.html 2>/dev/null
        compared=$((compared + 1))
        if ! diff -r "$work/svg-old" "$work/svg-new" >/dev/null 2>&1; then
            differences=$((differences + 1))
            echo "=== report --svg --lang $lang $name"
            diff -r "$work/svg-old" "$work/svg-new" | head -6
        fi
    done
    # On a terminal (through script(1)): the braille chart, in colour, at two widths.
    for columns in 100 60; do
        for side in old new; do
            (cd "$work" && COLUMNS=$columns script -qec "${!side} report $time --tz Asia/Shanghai '$input'" /dev/null >"$work/tty-$side.out" 2>&1)
        done
        compared=$((compared + 1))
        if ! cmp -s "$work/tty-old.out" "$work/tty-new.out"; then
            differences=$((differences + 1))
            echo "=== report on a terminal ($columns columns) $name"
            diff "$work/tty-old.out" "$work/tty-new.out" | head -6
        fi
    done
    run_both "tag --json $name" tag --json "$input"
    run_both "ndef decode --json $name" ndef decode --json "$input"
    for kind in tag2 tag5 ndef url hex; do run_both "decode --input $kind $name" decode --json "$time" --input "$kind" "$input"; done
    run_both "decode --require-read-time $name" decode --json --require-read-time "$input"
    run_both "decode --secret $name" decode --json "$time" --secret x "$input"
    run_both "decode --logger dtn1 $name" decode --json "$time" --logger dtn1 "$input"
done
# Archive flows: each binary into its own archive; the archive path differs by nature.
for side in old new; do
    binary=${!side}
    archive=$work/$side.sqlite
    for input in "$corpus"/*; do
        "$binary" archive add --archive "$archive" --logger-id "id-${input##*/}" "$time" "$input" 2>&1 | sed "s#$archive#ARCHIVE#g; s#$work/##g" >>"$work/$side.add.txt"
    done
    "$binary" loggers --json --archive "$archive" >"$work/$side.loggers.json" 2>&1
    ids=$("$binary" loggers --json --archive "$archive" 2>/dev/null | grep -c '"id": "')
    if [ "$ids" -eq 0 ]; then echo "compare-outputs: the $side binary kept no logger: the archive flow compares nothing" >&2; exit 1; fi
    for id in $("$binary" loggers --json --archive "$archive" 2>/dev/null | grep -o '"id": "[^"]*"' | cut -d'"' -f4); do
        "$binary" history --json --archive "$archive" "$id" >>"$work/$side.history.json" 2>&1
        "$binary" history --csv --archive "$archive" "$id" >>"$work/$side.history.csv" 2>&1
    done
    # The first lines only: what the record adds after them is new (issue 26).
    "$binary" archive verify --archive "$archive" 2>&1 | sed "s#$archive#ARCHIVE#g" | head -2 >"$work/$side.verify.txt"
done
# The archive's version stamp was "1.0" before it became the real version (deliberately):
# said once here, then normalised, so that nothing else hides behind it.
if grep -q '"coldTapVersion": "1.0"' "$work/old.history.json" && ! grep -q '"coldTapVersion": "1.0"' "$work/new.history.json"; then
    echo "note: the archive's coldTapVersion changed from \"1.0\" to $(grep -o '"coldTapVersion": "[^"]*"' "$work/new.history.json" | head -1 | cut -d'"' -f4) (deliberate)"
fi
for part in add.txt loggers.json history.json history.csv verify.txt; do
    compared=$((compared + 1))
    # Normalised: the chain head moves with every write's time; the version stamp (above).
    # The raw bytes' SHA-256 is not normalised: the same input must give the same hash.
    # "Created a new archive at …" is said since a mistyped path must be seen (issue 26).
    normalise() {
        sed -E 's/"chainHead": "[0-9a-f]+"/"chainHead": H/; s/"coldTapVersion": "[^"]*"/"coldTapVersion": V/; s/Chain head: [0-9a-f]+/Chain head: H/; /^Created a new archive at ARCHIVE\.$/d' "$1"
    }
    if ! diff <(normalise "$work/old.$part") <(normalise "$work/new.$part") >/dev/null; then
        differences=$((differences + 1))
        echo "=== archive $part"
        diff <(normalise "$work/old.$part") <(normalise "$work/new.$part") | head -12
    fi
done
echo "compared $compared outputs of ${#inputs[@]} inputs: $differences differ"
