#!/usr/bin/env python3
"""Validates every Gatehouse configuration under Examples/ against docs/gatehouse.schema.json.

A configuration is any *.json file under Examples/ whose top level has "services".
Exits 1 and names the file and the failing place when one does not conform.
"""
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(__file__).resolve().parent.parent
schema = json.loads((root / "docs" / "gatehouse.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

# The schema must have teeth: each of these must be rejected.
must_fail = {
    "unknown service key": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "gatekeepers": [{"type": "alwaysAllow"}], "gatekeeper": []}}},
    "empty gatekeepers": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "gatekeepers": []}}},
    "bad HH:mm": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "gatekeepers": [{"type": "timeWindow", "timeZone": "UTC", "days": ["mon"], "from": "9am", "to": "17:00"}]}}},
    "typo in a built-in's key": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "gatekeepers": [{"type": "allowList", "subjcts": ["a"]}]}}},
    "unknown cache key": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "cache": {"bytes": 1}, "gatekeepers": [{"type": "alwaysAllow"}]}}},
    "empty allOf": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "gatekeepers": [{"type": "allOf", "policies": []}]}}},
    "remote: unknown protocol": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "gatekeepers": [{"type": "remote", "protocol": "opaa", "url": "http://127.0.0.1:8181/v1/data/gatehouse"}]}}},
    "remote: timeout without a unit": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "gatekeepers": [{"type": "remote", "protocol": "opa", "url": "http://127.0.0.1:8181/v1/data/gatehouse", "timeout": "250"}]}}},
    "remote: typo in a key": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "gatekeepers": [{"type": "remote", "protocol": "opa", "url": "http://127.0.0.1:8181/v1/data/gatehouse", "timout": "250ms"}]}}},
    "remote: no url": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "gatekeepers": [{"type": "remote", "protocol": "opa"}]}}},
    "json attribute source: typo in a key": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "resourceAttributes": {"type": "json", "pth": "owners.json"}, "gatekeepers": [{"type": "alwaysAllow"}]}}},
    "unknown whenInvalid": {"services": {"s": {"loader": {"type": "memory", "resources": {}}, "gatekeepers": [{"type": "file", "path": "a.rules", "whenInvalid": "keepLastValid"}]}}},
    "sqlite: typo in a key": {"services": {"s": {"loader": {"type": "sqlite", "path": "d.sqlite", "attributeColumn": {"owner": "owner_id"}}, "gatekeepers": [{"type": "alwaysAllow"}]}}},
    "sqlite: a column that is not a plain name": {"services": {"s": {"loader": {"type": "sqlite", "path": "d.sqlite", "attributeColumns": {"owner": "owner id"}}, "gatekeepers": [{"type": "alwaysAllow"}]}}},
}
for name, document in must_fail.items():
    if validator.is_valid(document):
        print(f"the schema accepts an invalid configuration: {name}", file=sys.stderr)
        sys.exit(1)

checked = 0
failed = 0
for path in sorted((root / "Examples").rglob("*.json")):
    document = json.loads(path.read_text())
    if not isinstance(document, dict) or "services" not in document:
        continue
    checked += 1
    errors = sorted(validator.iter_errors(document), key=lambda error: list(error.path))
    for error in errors:
        place = ".".join(str(part) for part in error.path) or "(top level)"
        print(f"{path.relative_to(root)}: {place}: {error.message}", file=sys.stderr)
    failed += bool(errors)

if checked == 0:
    print("no configurations found under Examples/", file=sys.stderr)
    sys.exit(1)
print(f"{checked} configuration(s) checked against docs/gatehouse.schema.json, {failed} invalid")
sys.exit(1 if failed else 0)
