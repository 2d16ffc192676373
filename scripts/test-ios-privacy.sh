#!/usr/bin/env bash
# The iPhone app declares what App Store Connect checks: a privacy manifest that parses, says
# it does not track, and names a reason for every required-reason API that the app's sources
# and the package libraries it links use (and none they do not); the local-network usage text
# in Info.plist and in every language of its catalog.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import json, plistlib, re, sys
from pathlib import Path

problems = []
manifest_path = Path("Apps/iOS/ColdTap/Resources/PrivacyInfo.xcprivacy")
if not manifest_path.exists():
    sys.exit(f"{manifest_path} is missing: App Store Connect refuses an app without a privacy manifest")
manifest = plistlib.loads(manifest_path.read_bytes())
if manifest.get("NSPrivacyTracking") is not False:
    problems.append("NSPrivacyTracking must be false")
if manifest.get("NSPrivacyTrackingDomains"):
    problems.append("the app names tracking domains, but tracks nothing")
declared = {entry["NSPrivacyAccessedAPIType"]: entry.get("NSPrivacyAccessedAPITypeReasons", [])
            for entry in manifest.get("NSPrivacyAccessedAPITypes", [])}

# What the app compiles: its own sources and the package products project.yml links.
project = Path("Apps/iOS/project.yml").read_text()
products = re.findall(r"product:\s*(\S+)", project)
roots = [Path("Apps/iOS/ColdTap")] + [Path("Sources") / name for name in products]
patterns = {
    "NSPrivacyAccessedAPICategoryUserDefaults": r"\bUserDefaults\b",
    "NSPrivacyAccessedAPICategoryFileTimestamp": r"(contentModificationDateKey|creationDateKey|\.modificationDate\b|\.creationDate\b|fileModificationDate|st_mtim)",
    "NSPrivacyAccessedAPICategorySystemBootTime": r"(systemUptime|mach_absolute_time)",
    "NSPrivacyAccessedAPICategoryDiskSpace": r"(volumeAvailableCapacity|systemFreeSize|statfs)",
    "NSPrivacyAccessedAPICategoryActiveKeyboards": r"activeInputModes",
}
used = {}
for root in roots:
    if not root.exists():
        problems.append(f"project.yml links {root.name}, which has no sources under Sources/")
        continue
    for path in sorted(root.rglob("*.swift")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            for category, pattern in patterns.items():
                if re.search(pattern, code):
                    used.setdefault(category, f"{path}:{number}")
for category, where in sorted(used.items()):
    if not declared.get(category):
        problems.append(f"{where} uses a {category} API, which the privacy manifest does not declare with a reason")
for category in sorted(set(declared) - set(used)):
    problems.append(f"the privacy manifest declares {category}, which nothing the app compiles uses")

info = plistlib.loads(Path("Apps/iOS/Support/Info.plist").read_bytes())
catalog = json.loads(Path("Apps/iOS/ColdTap/Resources/InfoPlist.xcstrings").read_text())
for key in ["NFCReaderUsageDescription", "NSLocalNetworkUsageDescription"]:
    if not info.get(key):
        problems.append(f"Info.plist has no {key}")
    languages = catalog["strings"].get(key, {}).get("localizations", {})
    for language in ["en", "zh-Hans", "ja"]:
        if not languages.get(language, {}).get("stringUnit", {}).get("value"):
            problems.append(f"InfoPlist.xcstrings has no {language} text for {key}")

if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
print("iOS privacy manifest: " + ", ".join(f"{c.removeprefix('NSPrivacyAccessedAPICategory')} ({', '.join(declared[c])})" for c in sorted(used))
      + f"; tracking false; local-network text in en, zh-Hans, ja ({len(roots)} source roots read)")
PY
