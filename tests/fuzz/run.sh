#!/usr/bin/env bash
# Fuzzes the readers of outside files with libFuzzer, under AddressSanitizer and
# UndefinedBehaviorSanitizer: the .rep reader, the Nsight Systems SQLite importer and the Chrome
# trace JSON importer. Builds its own instrumented build (clang) and seed corpora from the
# bundled samples, then runs each harness.
#
#   tests/fuzz/run.sh --smoke           a fixed 20,000 executions per harness (CI: a crasher
#                                       near the seeds fails the run)
#   tests/fuzz/run.sh --seconds 3600    each harness for an hour, on every core (-jobs)
#
# Needs clang and libclang-rt-14-dev (packaging/install-deps.sh installs them) and sqlite3.
# Environment: SIGHTLINE_FUZZ_BUILD (default build-fuzz), SIGHTLINE_FUZZ_OUT (corpora and
# findings, default $SIGHTLINE_FUZZ_BUILD/runs). A finding stops its harness; libFuzzer writes the
# input as crash-*, leak-*, oom-* or timeout-* in the output folder and the run exits non-zero.
# Turn each finding into a unit test (tests/unit/format/test_crafted_reports.cpp and beside it).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=${SIGHTLINE_FUZZ_BUILD:-$root/build-fuzz}
out=${SIGHTLINE_FUZZ_OUT:-$build/runs}
mode=smoke seconds=0
case "${1:---smoke}" in
--smoke) ;;
--seconds) mode=long seconds=${2:?--seconds needs a number} ;;
*) echo "usage: tests/fuzz/run.sh [--smoke | --seconds N]" >&2; exit 2 ;;
esac

if ! command -v clang++ > /dev/null; then
    echo "tests/fuzz/run.sh: clang++ is not installed; run packaging/install-deps.sh." >&2
    exit 1
fi
if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DSIGHTLINE_FUZZ=ON \
        -DSIGHTLINE_BUILD_GUI=OFF -DSIGHTLINE_BUILD_COLLECTOR=OFF -DSIGHTLINE_BUILD_TESTS=OFF \
        -DSIGHTLINE_BUILD_BENCHMARKS=OFF ${SIGHTLINE_FUZZ_CMAKE_ARGS:-} > /dev/null
fi
cmake --build "$build" --target fuzz_report fuzz_nsys_sqlite fuzz_chrome_json sightline

# Seeds, small so that each execution is fast: the bundled sample report and the reports of
# tests/fuzz/seeds (one with GPU metrics, so counter chunks get mutated too); each exported as
# SQLite and compacted to small pages; the Chrome trace JSON files of tests/fuzz/seeds.
seeds=$out/seeds
mkdir -p "$seeds/report" "$seeds/nsys_sqlite" "$seeds/chrome_json"
cp resources/samples/sample.rep tests/fuzz/seeds/report/*.rep "$seeds/report/"
cp tests/fuzz/seeds/chrome_json/*.json "$seeds/chrome_json/"
for report in "$seeds"/report/*.rep; do
    name=$(basename "$report" .rep)
    [ -f "$seeds/nsys_sqlite/$name.sqlite" ] && continue
    ASAN_OPTIONS=detect_leaks=0 "$build/bin/sightline" export --type sqlite -f -o "$out/$name-export.sqlite" \
        "$report" > /dev/null
    sqlite3 "$out/$name-export.sqlite" "PRAGMA page_size = 512; VACUUM INTO '$seeds/nsys_sqlite/$name.sqlite';"
done

status=0
for harness in report nsys_sqlite chrome_json; do
    corpus=$out/corpus/$harness
    mkdir -p "$corpus" "$out/findings/$harness"
    limits=(-rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 -max_len=262144)
    if [ "$mode" = smoke ]; then
        run=(-runs=20000 -seed=1)
    else
        run=(-max_total_time="$seconds" -jobs="$(nproc)" -workers="$(nproc)")
    fi
    echo "== fuzz_$harness ${run[*]}"
    (cd "$out/findings/$harness" &&
        "$build/bin/fuzz_$harness" "${limits[@]}" "${run[@]}" -artifact_prefix="$out/findings/$harness/" \
            "$corpus" "$seeds/$harness" 2>&1 | tail -n 4) || status=1
done
exit $status
