#!/usr/bin/env python3
"""Writes ColdTap/Resources/Localizable.xcstrings and InfoPlist.xcstrings from
translations.py, after checking that every key the sources use has a Simplified Chinese
and a Japanese translation with the same format specifiers, and that no stale key is left.

    python3 tools/build_catalog.py          # check and write
    python3 tools/build_catalog.py --check  # check only, and that the files are current
"""
import json
import pathlib
import re
import sys

sys.dont_write_bytecode = True  # keep the tools folder clean

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import extract_keys  # noqa: E402
import translations  # noqa: E402

APP = HERE.parent / "ColdTap"
# The package target that holds the app's view models: its String(localized:) keys resolve
# against the app's catalog too (main bundle), so they must be in it.
VIEW_MODELS = HERE.parents[2] / "Sources" / "AppViewModels"
RESOURCES = APP / "Resources"
SPEC = re.compile(r"%(?:\d+\$)?(@|lld|d|%)")


def specifiers(text):
    return sorted(m.group(1) for m in SPEC.finditer(text) if m.group(1) != "%")


def unit(value):
    return {"stringUnit": {"state": "translated", "value": value}}


def check():
    problems = []
    used = extract_keys.keys(APP) | extract_keys.keys(VIEW_MODELS)
    known = set(translations.T)
    for key in sorted(used - known):
        problems.append(f"missing translation: {key!r}")
    for key in sorted(known - used):
        problems.append(f"stale translation (no source uses it): {key!r}")
    for key, (zh, ja) in translations.T.items():
        for language, text in (("zh-Hans", zh), ("ja", ja)):
            if not text.strip():
                problems.append(f"empty {language} text for {key!r}")
            if specifiers(text) != specifiers(key):
                problems.append(f"{language} specifiers {specifiers(text)} differ from {specifiers(key)} in {key!r}")
    return problems


def localizable():
    # Xcode's string extraction sees the app target only: a key only AppViewModels uses is
    # marked manual, so Xcode neither marks it stale nor drops it from the catalog.
    package_only = extract_keys.keys(VIEW_MODELS) - extract_keys.keys(APP)
    strings = {}
    for key in sorted(translations.T):
        zh, ja = translations.T[key]
        english = unit(key)
        if key in translations.EN_PLURAL_ONE:
            english = {"variations": {"plural": {"one": unit(translations.EN_PLURAL_ONE[key]), "other": unit(key)}}}
        strings[key] = {"localizations": {"en": english, "ja": unit(ja), "zh-Hans": unit(zh)}}
        if key in package_only:
            strings[key]["extractionState"] = "manual"
    return {"sourceLanguage": "en", "strings": strings, "version": "1.0"}


def info_plist():
    strings = {}
    for key, (en, zh, ja) in sorted(translations.INFO_PLIST.items()):
        strings[key] = {"extractionState": "manual",
                        "localizations": {"en": unit(en), "ja": unit(ja), "zh-Hans": unit(zh)}}
    return {"sourceLanguage": "en", "strings": strings, "version": "1.0"}


def render(catalog):
    return json.dumps(catalog, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def main():
    problems = check()
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    outputs = {RESOURCES / "Localizable.xcstrings": render(localizable()),
               RESOURCES / "InfoPlist.xcstrings": render(info_plist())}
    if "--check" in sys.argv:
        stale = [str(p) for p, text in outputs.items() if not p.exists() or p.read_text() != text]
        for path in stale:
            print(f"out of date: {path} (run tools/build_catalog.py)", file=sys.stderr)
        return 1 if stale else 0
    RESOURCES.mkdir(parents=True, exist_ok=True)
    for path, text in outputs.items():
        path.write_text(text)
    print(f"{len(translations.T)} keys in en, zh-Hans, ja")
    return 0


if __name__ == "__main__":
    sys.exit(main())
