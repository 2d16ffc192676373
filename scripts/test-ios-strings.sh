#!/usr/bin/env bash
# The iPhone app's String Catalog is complete: every key its Swift sources use has
# Simplified Chinese and Japanese text with matching format specifiers, and the checked-in
# catalogs match Apps/iOS/tools/translations.py.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 Apps/iOS/tools/build_catalog.py --check
echo "iOS String Catalog complete (en, zh-Hans, ja)"
