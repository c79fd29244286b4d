#!/usr/bin/env bash
# What a profiler adds per CUDA launch: a launch-bound PyTorch loop (torch_overhead.py: x.add_(1)
# on one element, 100k iterations) bare, under torch.profiler and under `sightline profile`, plus
# variants that show where the added cost sits. Every configuration runs once per round, in its
# own process, interleaved over ROUNDS rounds (rounds.sh); overhead_stats.py prints each one's
# median with a 95% interval and what it adds to the bare loop (paired by round), and judges the
# target by the medians: sightline adds at most half of what torch.profiler adds (PASS, FAIL, or
# UNDECIDED when the noise is too wide to tell). Each run's whole output (the loop's tenths, CPU
# time per thread) is kept in logs/overhead/. Each target is pinned to two cores (taskset); the
# launcher is not.
#   OUT=dir SIGHTLINE_BUILD=build tests/gpu/overhead.sh [ROUNDS] [VARIANTS...]
# Variants: bare, torchprof, sightline (the defaults), gpu-metrics (+ GPU metrics at 10 kHz),
# no-driver (no driver API records), cuda-only (-t cuda), kernels-only (no API records),
# cupti-callback (CUDA records stamped through our CLOCK_MONOTONIC callback, as before
# cupti_clock.h), cupti-zeroing (CUPTI zeroes its buffers in the launching thread, as before
# activity_buffers.h), no-cpu (no CPU samples, no thread states), no-ctxsw (no thread states),
# no-perfmap (without CPython's perf map), nvtx-osrt (no CUDA), nsys (Nsight Systems' defaults,
# where NSYS or PATH has one).
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${SIGHTLINE_BUILD:-$here/../../build}
out=${OUT:-$here/../../gpu-results}
mkdir -p "$out/reports" "$out/logs"
rounds=${1:-7}
shift || true
variants=${*:-bare torchprof sightline gpu-metrics no-driver kernels-only}
source "$here/rounds.sh"
nsys=${NSYS:-$(command -v nsys || ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -1)}
pin=(taskset -c 2,3) # the target only; the launcher runs wherever
loop=("${pin[@]}" python3 "$here/torch_overhead.py" --iters 100000)
profile=("$build/bin/sightline" profile -f -q -o "$out/reports/overhead.rep")
traced=("${profile[@]}" -t cuda,nvtx,osrt)
overhead_run() {
    case $1 in
    bare) "${loop[@]}" --mode bare ;;
    torchprof) "${loop[@]}" --mode torchprof ;;
    sightline) "${traced[@]}" "${loop[@]}" --mode bare ;;
    gpu-metrics) "${traced[@]}" --gpu-metrics-devices=all --gpu-metrics-frequency=10000 "${loop[@]}" --mode bare ;;
    no-driver) SIGHTLINE_CUDA_DRIVER_API=0 "${traced[@]}" "${loop[@]}" --mode bare ;;
    cuda-only) "${profile[@]}" -t cuda "${loop[@]}" --mode bare ;;
    kernels-only) SIGHTLINE_CUDA_API=0 "${profile[@]}" -t cuda "${loop[@]}" --mode bare ;;
    cupti-callback) SIGHTLINE_CUPTI_CLOCK=callback "${traced[@]}" "${loop[@]}" --mode bare ;;
    cupti-zeroing) SIGHTLINE_CUPTI_ZEROING=cupti "${traced[@]}" "${loop[@]}" --mode bare ;;
    no-cpu) "${traced[@]}" --sample=none --cpuctxsw=none "${loop[@]}" --mode bare ;;
    no-ctxsw) "${traced[@]}" --cpuctxsw=none "${loop[@]}" --mode bare ;;
    no-perfmap) "${traced[@]}" -e PYTHONPERFSUPPORT=0 "${loop[@]}" --mode bare ;;
    nvtx-osrt) "${profile[@]}" -t nvtx,osrt "${loop[@]}" --mode bare ;;
    nsys) "$nsys" profile -f true -o "$out/reports/overhead-nsys" "${loop[@]}" --mode bare ;;
    *) echo "overhead.sh: no variant '$1'" ;;
    esac
}
# shellcheck disable=SC2086
run_rounds "$rounds" "$out/logs/overhead-rounds.txt" "$out/logs/overhead" overhead_run us_per_iteration $variants
python3 "$here/overhead_stats.py" "$out/logs/overhead-rounds.txt" --unit us/iteration --target 'sightline<=0.5*torchprof'
