#!/usr/bin/env python3
"""Lists the localization keys the app's Swift sources use, in String Catalog form.

SwiftUI initializers that take a string literal (Text, Label, Section, Button, ...) and
String(localized:) produce keys; interpolations become %@ (strings) or %lld (integers,
listed in INT_EXPRESSIONS). Used by build_catalog.py to prove the catalog is complete, over
the app's sources and the package's AppViewModels (the view models word their texts with
the same keys, looked up in the app's catalog).
"""
import pathlib
import re
import sys

# `String(localized: "…")` may be broken after the parenthesis (swift format does that to long keys).
CALLS = r'(?:Text|Label|Section|Button|Picker|Toggle|LabeledContent|TextField|SecureField|navigationTitle|alert|confirmationDialog|String\(\s*localized:)'
PATTERN = re.compile(CALLS + r'\(?\s*"((?:[^"\\]|\\.|\\\((?:[^()]|\([^()]*\))*\))*)"')
INT_EXPRESSIONS = {"seconds", "unreadableCount"}


def key_of(literal: str) -> str:
    def spec(match):
        expression = match.group(1)
        return "%lld" if expression in INT_EXPRESSIONS else "%@"
    return re.sub(r'\\\(((?:[^()]|\([^()]*\))*)\)', spec, literal)


def keys(root: pathlib.Path) -> set:
    found = set()
    for path in sorted(root.rglob("*.swift")):
        for match in PATTERN.finditer(path.read_text()):
            found.add(key_of(match.group(1)))
    return found


if __name__ == "__main__":
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "ColdTap")
    for key in sorted(keys(root)):
        print(key)
