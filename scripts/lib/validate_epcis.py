"""Checks EPCIS 2.0 documents exported by ColdTap (docs/epcis.md, "How the exports are checked").

usage: validate_epcis.py SCHEMA DOCUMENT...

1. GS1's JSON Schema (draft-07) with format checking on: `uri` through rfc3987 and
   `date-time` through rfc3339-validator. Without a format checker, made-up CBV terms and
   undeclared keys pass, so a missing checker is an error here, not a silent pass.
2. Every eventID against the reference event hash generator (epcis-event-hash-generator),
   which must give one hash per event.
3. What the schema cannot see: no attribute in both sensorMetadata and a sensorReport,
   bizRules in sensorMetadata only, startTime < endTime <= eventTime, time <= eventTime,
   every prefixed key declared in the @context, no boolean extension values.
Prints one line per document and exits 1 naming the first problems.
"""
import json
import sys
from datetime import datetime

import jsonschema
from jsonschema import Draft7Validator
from epcis_event_hash_generator import hash_generator, json_to_py

BOTH_LEVELS = ("time", "deviceID", "deviceMetadata", "rawData", "dataProcessingMethod")


def instant(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def own_checks(document):
    problems = []
    context = document.get("@context", [])
    prefixes = {key for item in context if isinstance(item, dict) for key in item}
    if "https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld" not in context:
        problems.append("@context does not name the EPCIS 2.0.0 context")

    def walk(value, path):
        if isinstance(value, dict):
            for key, item in value.items():
                if ":" in key and not key.startswith("@") and key.split(":", 1)[0] not in prefixes:
                    problems.append(f"{path}.{key}: prefix not declared in @context")
                if ":" in key and isinstance(item, bool):
                    problems.append(f"{path}.{key}: a boolean extension value (hashes differ between implementations)")
                walk(item, f"{path}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]")

    walk(document, "$")
    for number, event in enumerate(document["epcisBody"]["eventList"]):
        where = f"event {number}"
        event_time = instant(event["eventTime"])
        for element in event.get("sensorElementList", []):
            metadata = element.get("sensorMetadata", {})
            for report in element["sensorReport"]:
                for key in BOTH_LEVELS:
                    if key in metadata and key in report:
                        problems.append(f"{where}: {key} in both sensorMetadata and sensorReport")
                if "bizRules" in report:
                    problems.append(f"{where}: bizRules in a sensorReport")
                if "time" in report and instant(report["time"]) > event_time:
                    problems.append(f"{where}: a report's time is after the eventTime")
            if "startTime" in metadata or "endTime" in metadata:
                if not ("startTime" in metadata and "endTime" in metadata):
                    problems.append(f"{where}: startTime without endTime or the other way round")
                elif not instant(metadata["startTime"]) < instant(metadata["endTime"]) <= event_time:
                    problems.append(f"{where}: not startTime < endTime <= eventTime")
            if "time" in metadata and instant(metadata["time"]) > event_time:
                problems.append(f"{where}: sensorMetadata time is after the eventTime")
    return problems


def main():
    schema_path, documents = sys.argv[1], sys.argv[2:]
    with open(schema_path, encoding="utf-8") as file:
        schema = json.load(file)
    checker = Draft7Validator.FORMAT_CHECKER
    for needed in ("uri", "date-time"):
        if needed not in checker.checkers:
            print(f"validate_epcis: the format checker cannot check '{needed}' (rfc3987 / rfc3339-validator missing): run make test-venv")
            return 1
    validator = Draft7Validator(schema, format_checker=checker)
    failed = False
    for path in documents:
        with open(path, encoding="utf-8") as file:
            document = json.load(file)
        problems = [f"schema: {'/'.join(map(str, error.absolute_path))}: {error.message}" for error in validator.iter_errors(document)]
        events = document["epcisBody"]["eventList"]
        hashes = hash_generator.epcis_hashes_from_events(json_to_py.event_list_from_epcis_document_json(document))
        if len(hashes) != len(events):
            problems.append(f"the reference hash generator read {len(hashes)} of {len(events)} events")
        for number, (event, expected) in enumerate(zip(events, hashes)):
            if event.get("eventID") != expected:
                problems.append(f"event {number}: eventID {event.get('eventID')} but the reference hash is {expected}")
        problems += own_checks(document)
        if problems:
            failed = True
            print(f"{path}: {len(problems)} problem(s)")
            for problem in problems[:20]:
                print(f"  {problem}")
        else:
            print(f"{path}: valid, {len(events)} event(s), every eventID matches the reference hash")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
