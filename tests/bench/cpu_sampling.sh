#!/usr/bin/env bash
# Prints what CPU sampling costs: the wall time a CPU-bound loop gains when `sightline profile`
# samples it at 1 kHz (target <= 2%; medians of runs alternating with and without sampling, with their interval), and
# how fast the samples are processed after the run (target >= 1M samples/s per core; the "cpu
# samples" phase runs on one core). Usage: tests/bench/cpu_sampling.sh [BUILD_DIR] (default build);
# CPU_TARGET names the test program (tests/unit/collector/cpu_target.cpp) when the build has no tests.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
sightline="$build/bin/sightline"
target=${CPU_TARGET:-$build/tests/unit/collector/cpu_target_fp}
rounds=${ROUNDS:-90000}
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { grep -o 'work-seconds [0-9.]*' | cut -d' ' -f2; }
# Runs alternate with and without sampling; overhead_stats.py judges the medians (paired by
# round) with their 95% interval: PASS, FAIL, or UNDECIDED when the noise is too wide to tell.
: > "$work/runs.txt"
for ((i = 0; i < runs; i++)); do
    echo "off $("$sightline" profile -q -t none --sample=none --cpuctxsw=none -f -o "$work/off.rep" "$target" work "$rounds" 1 | seconds)" >> "$work/runs.txt"
    echo "on $("$sightline" profile -q -t none --sample=process-tree --sampling-frequency=1000 -f -o "$work/on.rep" "$target" work "$rounds" 1 | seconds)" >> "$work/runs.txt"
done
echo "sampling overhead at 1 kHz (work seconds, $runs runs of each):"
python3 "$(dirname "$0")/../gpu/overhead_stats.py" "$work/runs.txt" --reference off --unit s --target 'on<=2%' || true

# Processing: samples from two threads at 10 kHz, at two lengths of run; the difference between
# them is the cost per sample, apart from the fixed cost of loading symbols (ELF files, kallsyms).
process() {
    local timings
    timings=$(SIGHTLINE_TIMINGS=1 "$sightline" profile -t none --sampling-frequency=10000 -f -o "$work/rate.rep" \
        "$target" work "$1" 2 2>&1 >/dev/null)
    echo "$(echo "$timings" | grep -o 'cpu: [0-9]* samples' | cut -d' ' -f2) $(echo "$timings" | grep -o 'cpu samples: [0-9.]*' | cut -d' ' -f3)"
}
read -r n1 s1 <<<"$(process "$rounds")"
read -r n2 s2 <<<"$(process $((rounds * 4)))"
awk -v n1="$n1" -v s1="$s1" -v n2="$n2" -v s2="$s2" 'BEGIN {
    printf "processing: %d samples in %.3f s (%.2f M/s), %d in %.3f s (%.2f M/s) on one core\n", n1, s1, n1 / s1 / 1e6, n2, s2, n2 / s2 / 1e6
    printf "processing per sample, beyond the fixed cost: %.2f M samples/s (target >= 1)\n", (n2 - n1) / (s2 - s1) / 1e6 }'
