#!/usr/bin/env bash
# Code for a newer Apple SDK is gated by the SDK, not by the compiler version (issue 32 item 6):
# a file the iPhone app compiles never uses `#if compiler(...)`, and every
# `canImport(Module, _underlyingVersion: V)` gate it uses is written down, with the SDK it
# stands for, in docs/apple-availability.md (Apps/iOS/README.md explains why).
# Cairo stays off Apple builds (issue 45 item 1): some xcodebuild versions ignore the
# `.when(platforms: [.linux])` condition on the CCairo dependency, and then `cairo.h` is not
# found; so every gate on `canImport(CCairo)` in Sources/ also says `!canImport(CoreGraphics)`,
# or is the `#elseif` of a gate that already took the Core Graphics path.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import re, sys
from pathlib import Path

project = Path("Apps/iOS/project.yml").read_text()
products = re.findall(r"product:\s*(\S+)", project)
roots = [Path("Apps/iOS/ColdTap")] + [Path("Sources") / name for name in products]
availability = Path("docs/apple-availability.md").read_text()
problems, gates = [], 0
for root in roots:
    for path in sorted(root.rglob("*.swift")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            if re.search(r"#(else)?if\b.*\bcompiler\s*\(", code):
                problems.append(f"{path}:{number}: gates code by the compiler version; gate an SDK API with canImport(Module, _underlyingVersion: V)")
            for module, version in re.findall(r"canImport\(\s*(\w+)\s*,\s*_underlyingVersion:\s*([\d.]+)\s*\)", code):
                gates += 1
                if f"canImport({module}, _underlyingVersion: {version})" not in availability:
                    problems.append(f"{path}:{number}: the gate canImport({module}, _underlyingVersion: {version}) is not named in docs/apple-availability.md")
if problems:
    sys.exit("\n".join(problems))
print(f"SDK gates: {gates} version gate(s) documented, no compiler-version gate in {len(roots)} source roots")
PY
python3 - <<'PY'
import re, sys
from pathlib import Path

problems, gates = [], 0
for path in sorted(Path("Sources").rglob("*.swift")):
    opened = []  # the condition of each open #if, innermost last
    for number, line in enumerate(path.read_text().splitlines(), 1):
        directive = re.match(r"\s*#(if|elseif|else|endif)\b(.*)", line)
        if not directive:
            continue
        kind, condition = directive.group(1), directive.group(2).split("//", 1)[0]
        if kind == "if":
            opened.append(condition)
        elif kind == "endif":
            opened.pop()
        if kind in ("if", "elseif") and "canImport(CCairo)" in condition:
            gates += 1
            first = opened[-1] if opened else ""
            guarded = "!canImport(CoreGraphics)" in condition
            after_core_graphics = kind == "elseif" and re.search(r"(?<!!)canImport\(CoreGraphics\)", first)
            if not (guarded or after_core_graphics):
                problems.append(f"{path}:{number}: gates on canImport(CCairo) without !canImport(CoreGraphics); an Xcode build that ignores the CCairo platform condition would compile it")
if problems:
    sys.exit("\n".join(problems))
print(f"Cairo gates: {gates} gate(s) on canImport(CCairo), each kept off Core Graphics platforms")
PY
