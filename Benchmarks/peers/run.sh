#!/usr/bin/env bash
# Gatehouse beside Cedar, Casbin and Rego: the same rules and requests at 100, 10,000 and
# 100,000 rules (see peers.py). Makes a venv in .build/peers-venv with cedarpy, casbin and regopy
# from PyPI, builds gatehouse-bench, and prints nanoseconds per decision and the ratios.
# Not run by CI. Usage: Benchmarks/peers/run.sh [peers.py options, e.g. --sizes 100,10000]
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build/peers-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check cedarpy casbin regopy
swift build -c release --product gatehouse-bench >/dev/null
exec "$venv/bin/python" Benchmarks/peers/peers.py --bench .build/release/gatehouse-bench "$@"
