#!/usr/bin/env bash
# Builds and runs the libFuzzer targets. Not a SwiftPM target: the library modules are compiled
# here with swiftc, with coverage and AddressSanitizer, into Tests/Fuzz/.build.
#
#   Tests/Fuzz/run.sh --list              the targets
#   Tests/Fuzz/run.sh [TARGET|all] [SECONDS] [-- LIBFUZZER_FLAGS...]
#                                         build, then fuzz each target for SECONDS (default 30;
#                                         0 only builds). New inputs go to .build/corpus/TARGET,
#                                         crashes to .build/artifacts; the seeds in corpus/ are
#                                         read, never written.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
package="$(cd "$here/../.." && pwd)"
build="$here/.build"
targets=(configuration rules localtime diskkey identity)
modules=(GatehouseCore GatehousePolicies GatehouseLoaders GatehouseAudit GatehouseRemote GatehouseComposition)
shim="$package/Sources/CGatehouseLinux"
flags=(-parse-as-library -package-name gatehouse -swift-version 6 -enable-upcoming-feature ExistentialAny
    -O -g -sanitize=fuzzer,address -I "$build" -L "$build" -I "$shim/include")

if [[ "${1:-}" == "--list" ]]; then
    printf '%s\n' "${targets[@]}"
    exit 0
fi
target="${1:-all}"
seconds="${2:-30}"
shift $(( $# < 2 ? $# : 2 ))
[[ "${1:-}" == "--" ]] && shift
extra=("$@")

if [[ "$target" == "all" ]]; then
    selected=("${targets[@]}")
elif [[ " ${targets[*]} " == *" $target "* ]]; then
    selected=("$target")
else
    echo "unknown target '$target'; run.sh --list shows the targets" >&2
    exit 2
fi

mkdir -p "$build"
# The C target GatehouseLoaders calls (openat2), with the toolchain's clang.
rebuilt=0
shimLibrary="$build/libCGatehouseLinux.a"
if [[ ! -f "$shimLibrary" ]] || [[ -n "$(find "$shim" "$0" -newer "$shimLibrary" -print -quit)" ]]; then
    echo "==> building CGatehouseLinux" >&2
    "$(dirname "$(command -v swiftc)")/clang" -c -O -g -fsanitize=fuzzer-no-link,address \
        -I "$shim/include" -o "$build/CGatehouseLinux.o" "$shim/CGatehouseLinux.c"
    rm -f "$shimLibrary"
    ar rcs "$shimLibrary" "$build/CGatehouseLinux.o"
    rebuilt=1
fi
# Each library module, rebuilt when one of its sources (or a module it imports) is newer.
for module in "${modules[@]}"; do
    library="$build/lib$module.a"
    if (( rebuilt )) || [[ ! -f "$library" ]] || [[ -n "$(find "$package/Sources/$module" "$0" -newer "$library" -print -quit)" ]]; then
        echo "==> building $module" >&2
        rm -f "$library"  # swiftc adds to an existing archive: a file moved away would stay in it
        (cd "$build" && swiftc "${flags[@]}" -emit-library -static -emit-module -module-name "$module" \
            -emit-module-path "$build/$module.swiftmodule" -o "$library" "$package/Sources/$module"/*.swift)
        rebuilt=1
    fi
done

for name in "${selected[@]}"; do
    binary="$build/fuzz-$name"
    if [[ ! -f "$binary" ]] || [[ -n "$(find "$here/Targets/$name.swift" "$here/Support" "$build"/lib*.a -newer "$binary" -print -quit)" ]]; then
        echo "==> building fuzz-$name" >&2
        swiftc "${flags[@]}" -use-ld=lld -module-name "Fuzz_$name" -o "$binary" \
            "$here/Support"/*.swift "$here/Targets/$name.swift" \
            -lGatehouseComposition -lGatehouseAudit -lGatehouseRemote -lGatehousePolicies -lGatehouseLoaders -lGatehouseCore -lCGatehouseLinux
    fi
    (( seconds > 0 )) || continue
    echo "==> fuzzing $name for $seconds s" >&2
    mkdir -p "$build/corpus/$name" "$build/artifacts" "$build/tmp"
    # detect_leaks=0: the Swift runtime keeps metadata caches for the life of the process.
    ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" TMPDIR="$build/tmp" "$binary" \
        -max_total_time="$seconds" -max_len=8192 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$build/artifacts/$name-" "${extra[@]}" \
        "$build/corpus/$name" "$here/corpus/$name"
    rm -rf "$build/tmp"
done
