#!/usr/bin/env bash
# Regenerates README.md's command-line block from `coldtap help`, so the README's synopses
# are exactly what --help prints (Tests/CommandsTests/HelpTests.swift checks that they are).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product coldtap >/dev/null
block=$(.build/debug/coldtap help | awk 'NR > 2 && /^$/ { exit } NR > 2 { print }')
python3 - "$block" <<'PY'
import sys
path = "README.md"
text = open(path, encoding="utf-8").read()
begin, end = "<!-- coldtap help: begin -->\n", "<!-- coldtap help: end -->"
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(path, "w", encoding="utf-8").write(head + begin + "```\n" + sys.argv[1] + "\n```\n" + end + tail)
PY
echo "README.md: command-line block updated"
