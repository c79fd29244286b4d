#!/usr/bin/env bash
# What a profiler adds to a torch.compile training step (torch_step.py: a small GPT, launch-bound):
# the step run bare, under torch.profiler, under Nsight Systems where an `nsys` is found, and under
# `sightline profile` with more and more recorded. Each configuration runs in its own process,
# every configuration once per round, interleaved over ROUNDS rounds (rounds.sh); each run's
# figure is its median step after the warm-up steps. overhead_stats.py prints each configuration's
# median with a 95% interval and what it adds to the bare step (paired by round), and judges the
# targets: the default `sightline profile` adds at most half of what torch.profiler adds, and no
# more than Nsight Systems' defaults.
#
#   OUT=dir SIGHTLINE_BUILD=build tests/gpu/step_cost.sh [ROUNDS] [CONFIGS...]
#
# Configurations (default: all that can run here):
#   bare          the step alone            torchprof   inside torch.profiler (CPU and CUDA)
#   nsys          nsys profile, defaults     nsys-lean   nsys profile -t cuda,nvtx,osrt -s none
#   sl-trace      sightline, CUDA/NVTX/OS-runtime tracing only (no CPU samples, no perf map)
#   sl-samples    + CPU samples              sl-states   + thread states
#   sightline     + CPython's perf map: the defaults of `sightline profile`
#   sl-metrics    + GPU metrics at 10 kHz
# NSYS names the nsys binary; else PATH, then the one inside Nsight Compute's installation.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${SIGHTLINE_BUILD:-$here/../../build}
out=${OUT:-$here/../../gpu-results}
mkdir -p "$out/reports" "$out/logs"
rounds=${1:-6}
shift || true
source "$here/rounds.sh"

nsys=${NSYS:-$(command -v nsys || ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -1)}
configs=${*:-bare torchprof ${nsys:+nsys nsys-lean} sl-trace sl-samples sl-states sightline sl-metrics}
# Compile workers stay in the process (no pool of helpers to profile), the same for every run.
export TORCHINDUCTOR_COMPILE_THREADS=1
step=(python3 "$here/torch_step.py")
sightline=("$build/bin/sightline" profile -f -q -o "$out/reports/step.rep")
no_perf_map=(-e PYTHONPERFSUPPORT=0)

step_run() {
    case $1 in
    bare) "${step[@]}" --mode bare ;;
    torchprof) "${step[@]}" --mode torchprof ;;
    nsys) "$nsys" profile -f true -o "$out/reports/step-nsys" "${step[@]}" --mode bare ;;
    nsys-lean) "$nsys" profile -f true -o "$out/reports/step-nsys" -t cuda,nvtx,osrt -s none "${step[@]}" --mode bare ;;
    sl-trace) "${sightline[@]}" -s none --cpuctxsw=none "${no_perf_map[@]}" "${step[@]}" --mode bare ;;
    sl-samples) "${sightline[@]}" --cpuctxsw=none "${no_perf_map[@]}" "${step[@]}" --mode bare ;;
    sl-states) "${sightline[@]}" "${no_perf_map[@]}" "${step[@]}" --mode bare ;;
    sightline) "${sightline[@]}" "${step[@]}" --mode bare ;;
    sl-metrics) "${sightline[@]}" --gpu-metrics-devices=all --gpu-metrics-frequency=10000 "${step[@]}" --mode bare ;;
    *) echo "step_cost.sh: no configuration '$1'" ;;
    esac
}

echo "nsys: ${nsys:-not found (its configurations are left out)}"
# One bare run first fills the compile caches, so no measured process compiles from scratch.
step_run bare > "$out/logs/step-warmup.txt" 2>&1
# shellcheck disable=SC2086
run_rounds "$rounds" "$out/logs/step-rounds.txt" "$out/logs/step" step_run step_ms $configs
python3 "$here/overhead_stats.py" "$out/logs/step-rounds.txt" --unit ms/step \
    --target 'sightline<=0.5*torchprof' --target 'sightline<=1*nsys'
