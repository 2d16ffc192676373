"""Schemathesis hooks for scripts/test-openapi.sh (test tooling only, never shipped).

"Nothing rejected changed the archive": before each call the station's SQLite archive is
fingerprinted read-only (every table's rows hashed, in a read transaction), again right after
the answer, and the check `rejected_call_left_archive_unchanged` fails any call answered with a
status of 400 or more that changed it, naming the tables it changed. Calls are one at a time
(`st run --workers 1`) and the station answers an upload only after its commit, so a change seen
between the two fingerprints is the call's own.

Environment: COLDTAP_GUARD_ARCHIVE (the archive file, required), COLDTAP_GUARD_REPORT (a file
that receives one summary line at exit).
"""

import atexit
import hashlib
import os
import sqlite3

import schemathesis

# Written by the station on its own schedule, not by the call being checked.
IGNORED_TABLES = {"webhook_deliveries"}

_archive = os.environ["COLDTAP_GUARD_ARCHIVE"]
# mode=ro: this process never writes, so it cannot disturb the station's locks or files.
_connection = sqlite3.connect(f"file:{_archive}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
_before = {}
_flagged = {}
_stats = {"calls": 0, "rejected": 0, "changed_by_accepted": 0, "changed_by_rejected": 0}


def fingerprint():
    """Each table's row count and a SHA-256 of its rows, as one consistent snapshot."""
    tables = {}
    _connection.execute("BEGIN")
    try:
        names = [row[0] for row in _connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for name in names:
            if name in IGNORED_TABLES:
                continue
            digest = hashlib.sha256()
            count = 0
            for row in _connection.execute(f'SELECT * FROM "{name}" ORDER BY rowid'):
                digest.update(repr(row).encode())
                count += 1
            tables[name] = (count, digest.hexdigest())
    finally:
        _connection.execute("COMMIT")
    return tables


def changes(before, after):
    names = sorted(set(before) | set(after))
    return [f"{name} ({before.get(name, (0,))[0]} -> {after.get(name, (0,))[0]} rows)"
            for name in names if before.get(name) != after.get(name)]


@schemathesis.hook
def before_call(context, case, kwargs):
    _before[id(case)] = fingerprint()


@schemathesis.hook
def after_call(context, case, response):
    before = _before.pop(id(case), None)
    if before is None:
        return
    changed = changes(before, fingerprint())
    _stats["calls"] += 1
    if response.status_code >= 400:
        _stats["rejected"] += 1
        if changed:
            _stats["changed_by_rejected"] += 1
            # Keeps the response alive so that its id is not reused while the entry exists.
            _flagged[id(response)] = (response, changed)
    elif changed:
        _stats["changed_by_accepted"] += 1


@schemathesis.check
def rejected_call_left_archive_unchanged(ctx, response, case):
    """A call answered 4xx or 5xx must leave the archive as it was."""
    flagged = _flagged.get(id(response))
    if flagged is not None and flagged[0] is response:
        raise AssertionError(f"answered {response.status_code} yet changed the archive: {', '.join(flagged[1])}")
    return None


@atexit.register
def _summary():
    path = os.environ.get("COLDTAP_GUARD_REPORT")
    if path:
        with open(path, "w") as out:
            out.write("archive guard: {calls} calls fingerprinted, {rejected} rejected, {changed_by_rejected} rejected ones "
                      "changed the archive, {changed_by_accepted} accepted ones changed it\n".format(**_stats))
