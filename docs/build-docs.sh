#!/usr/bin/env bash
# Builds the DocC documentation of every library module from its symbol graph, with warnings as
# errors. The swift-docc-plugin package cannot be fetched here; the docc binary ships with the
# toolchain. Output: .build/docs/<Module>.doccarchive
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=$(swift package dump-symbol-graph --minimum-access-level public | sed -n 's/^Files written to //p' | tail -n 1)
[ -d "$graphs" ] || { echo "no symbol graphs were written" >&2; exit 1; }
docc=$(dirname "$(command -v swift)")/docc
mkdir -p .build/docs
for module in GatehouseCore GatehousePolicies GatehouseLoaders GatehouseAudit GatehouseRemote GatehousePhotos GatehouseSQLite GatehouseComposition GatehouseCommandLine GatehouseTesting; do
    work=$(mktemp -d)
    cp "$graphs/$module.symbols.json" "$work/"
    cp "$graphs/$module"@*.symbols.json "$work/" 2>/dev/null || true
    "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$work" \
        --fallback-display-name "$module" --fallback-bundle-identifier "gatehouse.$module" \
        --output-path ".build/docs/$module.doccarchive" \
        --warnings-as-errors
    rm -rf "$work"
    echo "docs: $module"
done
