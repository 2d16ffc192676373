#!/usr/bin/env bash
# Compiles every Swift file of the iPhone app (Apps/iOS/ColdTap) on Linux, in the Swift 6
# language mode with complete concurrency checking as project.yml builds it, against the
# package's libraries and the stand-in modules of the Apple frameworks it imports
# (Tests/*StandIn: Apple's documented signatures and isolation). CoreNFCTransport is compiled
# with its Core NFC glue switched on (CORENFC_GLUE_CHECK, against Tests/CoreNFCStandIn), as the
# app links it. Fails on any compiler error. Then it
#   - lists the Apple symbols the app uses, by framework, and fails when a stand-in declares a
#     name no app file uses (a dead stand-in drifts from Apple's API unseen);
#   - fails when the stand-in of TempChart's Apple-only `CoreGraphicsCanvas.image` and the
#     source's signature differ;
#   - checks that the check can fail: three deliberate misuses, each in a temporary copy of the
#     app (a misspelled modifier, a main-actor property read from a Core NFC delegate callback,
#     a wrong argument label on a Keychain call), must each fail the compile.
# What this proves and what only Xcode proves: Apps/iOS/README.md, "Compile check on Linux".
set -euo pipefail
cd "$(dirname "$0")/.."

swift=${SWIFT:-swift}
for target in AppViewModels ColdTapKit CoreNFCStandIn FoundationStandIn SwiftUIStandIn SecurityStandIn; do
    "$swift" build --target "$target" >/dev/null 2>&1 || {
        "$swift" build --target "$target" 2>&1 | tail -20
        exit 1
    }
done
modules="$("$swift" build --show-bin-path)/Modules"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The C modules the package libraries import, found as SwiftPM finds them.
c_flags=()
for map in Sources/C*/module.modulemap; do c_flags+=(-Xcc "-fmodule-map-file=$map"); done
for flag in $(pkg-config --cflags-only-I cairo libcrypto 2>/dev/null); do c_flags+=(-Xcc "$flag"); done
common=(-swift-version 6 -strict-concurrency=complete -Onone -module-cache-path "$work/cache" -I "$work/glue" -I "$modules" "${c_flags[@]}")

mkdir -p "$work/glue"
swiftc -emit-module -parse-as-library -module-name CoreNFCTransport -D CORENFC_GLUE_CHECK "${common[@]}" \
    -emit-module-path "$work/glue/CoreNFCTransport.swiftmodule" \
    Sources/CoreNFCTransport/*.swift Sources/CoreNFCTransport/Apple/*.swift

# Compiles the app's files under $1 to an object file (whole module, so the SIL passes that
# report Swift 6 data-race errors run too); prints the compiler's output.
compile_app() {
    local root=$1
    local files=()
    while IFS= read -r file; do files+=("$file"); done < <(find "$root" -name '*.swift' | sort)
    echo "${#files[@]}" >"$work/count"
    swiftc -c -wmo -parse-as-library -module-name ColdTap "${common[@]}" -o "$work/ColdTap.o" "${files[@]}" 2>&1
}

if ! output=$(compile_app Apps/iOS/ColdTap); then
    echo "$output"
    echo "iOS app type check: the app does not compile against the stand-ins (errors above)" >&2
    exit 1
fi
if grep -q "warning:" <<<"$output"; then echo "$output" | grep -A3 "warning:"; fi
# The compiler's own record of what each app expression refers to, for the usage check below.
files=()
while IFS= read -r file; do files+=("$file"); done < <(find Apps/iOS/ColdTap -name '*.swift' | sort)
swiftc -dump-ast -parse-as-library -module-name ColdTap "${common[@]}" "${files[@]}" 2>"$work/ast.txt" >/dev/null
echo "iOS app type check: compiled $(cat "$work/count") app files (Swift 6, complete concurrency checking) against the stand-ins"

# The stand-in of TempChart's Apple-only entry point keeps the source's signature.
signature() { python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
match = re.search(r"public static func image\((.*?)\)\s*->\s*CGImage\?", text, re.S)
print(re.sub(r"\s+", " ", match.group(0)) if match else "missing")
PY
}
if [ "$(signature Sources/TempChart/CoreGraphicsCanvas.swift)" != "$(signature Tests/CoreGraphicsStandIn/CoreGraphicsStandIn.swift)" ]; then
    echo "Tests/CoreGraphicsStandIn declares CoreGraphicsCanvas.image differently from Sources/TempChart/CoreGraphicsCanvas.swift" >&2
    exit 1
fi

# Every name a stand-in declares is used by an app file; list what each framework gives the app.
python3 - "$work/ast.txt" <<'PY'
import re, sys
from pathlib import Path

# Used: a name the app's code writes (comments and string literals left out), or one the
# compiler resolved an app expression to (implicit members, parameter and result types).
app = "\n".join(p.read_text() for p in sorted(Path("Apps/iOS/ColdTap").rglob("*.swift")))
app = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', re.sub(r"//.*", "", app))
app_words = set(re.findall(r"[A-Za-z_]\w*", app))
for line in open(sys.argv[1], errors="replace"):
    if "StandIn" in line:
        app_words.update(re.findall(r"[A-Za-z_]\w*", line))
problems = []
for module in ["SwiftUI", "UIKit", "Combine", "Security", "CoreGraphics", "Foundation"]:
    used = set()
    for path in sorted(Path(f"Tests/{module}StandIn").glob("*.swift")):
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines, 1):
            if line.lstrip().startswith(("//", "private ", "fileprivate ")):
                continue
            keywords = r"func|var|let|struct|class|enum|protocol|typealias|associatedtype"
            names = [n for n in re.findall(rf"(?=\b(?:{keywords})\s+([A-Za-z_]\w*))", line) if not re.fullmatch(keywords, n)]
            case = re.match(r"^\s*case\s+(.*)", line)
            if case:
                names += re.findall(r"([A-Za-z_]\w*)\s*(?:=\s*[^,]+)?(?:,|$)", case.group(1))
            if not names:
                continue
            # A declaration that a used one needs (a type in its signature the app never names, a
            # default argument's value) says so in its comment.
            previous = "\n".join(lines[max(0, number - 4):number - 1])
            shape = any(note in previous or note in line for note in ("shape of", "default argument of"))
            for name in names:
                if name in {"body", "rawValue", "init", "Body", "Output", "Failure", "wrappedValue", "projectedValue", "T", "Value"}:
                    continue
                if name.startswith("build") or name in {"appendLiteral"}:
                    continue  # result-builder and interpolation entry points the compiler calls
                if name in app_words:
                    used.add(name)
                elif not shape and not name.startswith("_") and name not in {"Publisher", "ObjectWillChangePublisher", "objectWillChange"}:
                    problems.append(f"{path}:{number}: the stand-in declares `{name}`, which no file of Apps/iOS/ColdTap uses")
    print(f"{module}: {', '.join(sorted(used))}")
if problems:
    sys.exit("\n".join(problems))
PY

# Apps/iOS/README.md's table of the app's files keeps their true line counts.
python3 - <<'PY'
import re, sys
from pathlib import Path

readme = Path("Apps/iOS/README.md").read_text()
rows = re.findall(r"^\| `((?:\w+/)+\w+\.swift)` \| (\d+) \|", readme, re.M)
files = {str(p.relative_to("Apps/iOS/ColdTap")) for p in Path("Apps/iOS/ColdTap").rglob("*.swift")}
listed = {name for name, _ in rows if name in files}
problems = [f"Apps/iOS/README.md lists {name} with {count} lines; it has {len(Path('Apps/iOS/ColdTap', name).read_text().splitlines())}"
            for name, count in rows if name in files and int(count) != len(Path("Apps/iOS/ColdTap", name).read_text().splitlines())]
problems += [f"Apps/iOS/README.md does not list {name}" for name in sorted(files - listed)]
total = sum(len(Path("Apps/iOS/ColdTap", name).read_text().splitlines()) for name in files)
if f"| **app total** | **{total}** |" not in readme:
    problems.append(f"Apps/iOS/README.md's app total is not {total}")
if problems:
    sys.exit("\n".join(problems))
PY

# The check can fail: each misuse, in a copy of the app, must stop the compile with its error.
misuse() {
    local description=$1 expected=$2 script=$3
    rm -rf "$work/app"
    cp -R Apps/iOS/ColdTap "$work/app"
    (cd "$work/app" && eval "$script")
    if output=$(compile_app "$work/app"); then
        echo "iOS app type check: a copy with $description compiled; the check cannot fail" >&2
        exit 1
    fi
    if ! grep -q -- "$expected" <<<"$output"; then
        echo "$output" | grep "error:" | head -5
        echo "iOS app type check: a copy with $description failed, but not with \"$expected\"" >&2
        exit 1
    fi
    echo "  fails as it should: $description"
}
misuse "a misspelled modifier" "has no member 'navigationTitel'" \
    "sed -i 's/\.navigationTitle(\"History\")/.navigationTitel(\"History\")/' Views/HistoryView.swift"
misuse "a main-actor property read from a Core NFC delegate callback" "main actor-isolated" \
    "cat > Reading/MisusedDelegate.swift <<'SWIFT'
#if canImport(CoreNFC)
    import CoreNFC
#else
    import CoreNFCStandIn
#endif

final class MisusedDelegate: NSObject, NFCTagReaderSessionDelegate {
    let model: AppModel
    init(model: AppModel) { self.model = model }
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}
    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {}
    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        if case .reading = model.state { session.invalidate() }
    }
}
SWIFT"
misuse "a wrong argument label on a Keychain call" "extraneous argument label" \
    "sed -i 's/SecItemDelete(query as CFDictionary)/SecItemDelete(query: query as CFDictionary)/' Storage/KeychainStore.swift"
